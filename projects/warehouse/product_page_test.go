package warehouse

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/tableview"
)

// A page past the first 100 rows, sorted by DuckDB over every row of the
// selection, with the filtered count; decimals sort as numbers.
func TestReadPageSortsAndFiltersTheWholeSelection(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	for d, key := range []string{"2024-03-10", "2024-03-11"} {
		tb := sdk.NewTable(sdk.Int64("id"), sdk.Decimal("amount", 38, 10), sdk.String("name"))
		for i := 0; i < 150; i++ {
			id := d*150 + i
			tb.Append(id, fmt.Sprintf("%d.5", (id*37)%301), fmt.Sprintf("c%03d", id))
		}
		publish(t, wh, "orders", key, tb)
	}
	sel := Selection{Partitions: []string{"2024-03-10", "2024-03-11"}}
	page, total, err := wh.ReadPage(t.Context(), "orders", sel, tableview.Query{Offset: 100, Limit: 100, Sort: []tableview.SortKey{{Column: "amount", Desc: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if total != 300 || page.Len() != 100 {
		t.Fatalf("total %d, page %d rows", total, page.Len())
	}
	all := read(t, wh, "orders", sel)
	want, _ := tableview.Apply(all, tableview.Query{Offset: 100, Limit: 100, Sort: []tableview.SortKey{{Column: "amount", Desc: true}}}, nil)
	if g, w := fmt.Sprint(page.Column("id").Int64s()), fmt.Sprint(want.Column("id").Int64s()); g != w {
		t.Fatalf("SQL page and in-memory page differ:\n sql %s\n mem %s", g, w)
	}
	if page.Column("amount").Decimals()[0] != "199.5000000000" { // 300..0 without 264
		t.Fatalf("row 101 of the sort is %s, want 199.5", page.Column("amount").Decimals()[0])
	}
	f, total, err := wh.ReadPage(t.Context(), "orders", sel, tableview.Query{Limit: 10, Filter: "C29"})
	if err != nil || total != 10 || f.Len() != 10 || f.Column("name").Strings()[0] != "c290" {
		t.Fatalf("filter: %v total %d", err, total)
	}
	_, _, err = wh.ReadPage(t.Context(), "orders", sel, tableview.Query{Limit: 10, Sort: []tableview.SortKey{{Column: "nope"}}})
	if !errors.Is(err, tableview.ErrBadQuery) {
		t.Fatalf("unknown sort column: %v", err)
	}
}
