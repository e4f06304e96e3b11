package warehouse

import (
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// The content hash is a hash of the rows as a multiset: row order does not
// matter; a value, a NULL for a zero, a swap between columns, a duplicate
// row or the schema do.
func TestContentHash(t *testing.T) {
	t.Parallel()
	f := cols(sdk.Int64("a"), sdk.Int64("b"), sdk.String("s"))
	h := func(fields []sdk.Field, rows ...[]any) string {
		tbl := table(t, fields, rows...)
		return contentHash(tbl, tbl.Schema())
	}
	base := h(f, row(int64(1), int64(2), "x"), row(int64(3), int64(4), "y"))
	if got := h(f, row(int64(3), int64(4), "y"), row(int64(1), int64(2), "x")); got != base {
		t.Fatal("row order changed the hash")
	}
	for name, other := range map[string]string{
		"a value":       h(f, row(int64(1), int64(2), "x"), row(int64(3), int64(5), "y")),
		"NULL for zero": h(f, row(int64(0), int64(2), "x"), row(int64(3), int64(4), "y")) + h(f, row(nil, int64(2), "x"), row(int64(3), int64(4), "y")),
		"swapped cols":  h(f, row(int64(2), int64(1), "x"), row(int64(3), int64(4), "y")),
		"duplicate":     h(f, row(int64(1), int64(2), "x"), row(int64(1), int64(2), "x"), row(int64(3), int64(4), "y")),
		"schema":        h(cols(sdk.Int64("a"), sdk.Int64("c"), sdk.String("s")), row(int64(1), int64(2), "x"), row(int64(3), int64(4), "y")),
	} {
		if other == base {
			t.Errorf("%s did not change the hash", name)
		}
	}
	zero := h(f, row(int64(0), int64(2), "x"))
	if null := h(f, row(nil, int64(2), "x")); null == zero {
		t.Error("a NULL hashes like a zero")
	}
}
