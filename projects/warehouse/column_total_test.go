package warehouse

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// TestDiffTotalsExactTypes: the set diff's column statistics give DECIMAL
// (and every integer type) a sum, a mean and an exact total; a total beyond
// DuckDB's 38 digits (where its sum fails on overflow) is exact too.
func TestDiffTotalsExactTypes(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	dec := func(vals ...any) *sdk.Table {
		var rows [][]any
		for i, v := range vals {
			rows = append(rows, row(int64(i), v))
		}
		return table(t, cols(sdk.Int64("id"), sdk.Decimal("amount", 4, 1)), rows...)
	}
	publish(t, wh, "d", "2024-01-01", dec("100.0", "-95.0", nil))
	s := stage(t, wh, "d", "2024-01-01", dec("100.6", "-95.0", nil))
	d, err := wh.DiffSet(ctx, "d", []VersionPair{{"2024-01-01", 1, s.Version}}, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var amount *ColumnChange
	for i := range d.Columns {
		if d.Columns[i].Name == "amount" {
			amount = &d.Columns[i]
		}
	}
	if amount == nil || amount.Before == nil || amount.After == nil {
		t.Fatalf("columns %+v", d.Columns)
	}
	b, a := amount.Before, amount.After
	if b.Total == nil || *b.Total != "5" || a.Total == nil || *a.Total != "5.6" || *a.Sum != 5.6 || *a.Mean != 2.8 {
		t.Fatalf("decimal statistics: before %+v, after %+v", b, a)
	}

	big := "99999999999999999999999999999999999999"
	wide := table(t, cols(sdk.Decimal("x", 38, 0)), row(big), row(big))
	publish(t, wh, "w", "2024-01-01", table(t, cols(sdk.Decimal("x", 38, 0)), row("1")))
	sw := stage(t, wh, "w", "2024-01-01", wide)
	dw, err := wh.DiffSet(ctx, "w", []VersionPair{{"2024-01-01", 1, sw.Version}}, DiffOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after := dw.Columns[0].After
	if after.Total == nil || *after.Total != "1"+strings.Repeat("9", 37)+"8" || after.TotalNote != "" {
		t.Fatalf("a total beyond 38 digits: %+v (total %v)", after, after.Total)
	}
	tot, f, err := wh.Total(ctx, "w", "X", []PartitionVersion{{Partition: "2024-01-01", Version: sw.Version}})
	if err != nil || f.Type != sdk.TypeDecimal || tot.FloatString(0) != *after.Total {
		t.Fatalf("Total: %v %v %v", tot, f, err)
	}
	if _, _, err := wh.Total(ctx, "w", "nope", []PartitionVersion{{Partition: "2024-01-01", Version: sw.Version}}); err == nil || !strings.Contains(err.Error(), `no column "nope"`) {
		t.Fatalf("Total of a missing column: %v", err)
	}
}
