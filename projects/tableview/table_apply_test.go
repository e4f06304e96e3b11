package tableview

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func sample(t *testing.T) *sdk.Table {
	t.Helper()
	tb := sdk.NewTable(sdk.Int64("id"), sdk.Decimal("amount", 38, 10), sdk.Int128("h"), sdk.String("name"), sdk.Date("d"))
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 250; i++ {
		var amount any = fmt.Sprintf("%d.%010d", (i*37)%101, i)
		if i%50 == 7 {
			amount = nil
		}
		tb.Append(i, amount, new(big.Int).Lsh(big.NewInt(int64(i%3)), 100), fmt.Sprintf("cust-%03d", i), day.AddDate(0, 0, i%5))
	}
	if err := tb.Err(); err != nil {
		t.Fatal(err)
	}
	return tb
}

// Sorting applies to every row before the page is cut, decimals compare as
// numbers ("100" after "99"), nulls come last either way, ties keep the
// original order.
func TestApplySortsTheWholeResultThenPages(t *testing.T) {
	t.Parallel()
	tb := sample(t)
	q, err := Query{Offset: 0, Limit: 100, Sort: []SortKey{{Column: "AMOUNT", Desc: true}}}.Check([]string{"id", "amount", "h", "name", "d"})
	if err != nil {
		t.Fatal(err)
	}
	page, total := Apply(tb, q, time.UTC)
	if total != 250 || page.Len() != 100 {
		t.Fatalf("total %d, page %d", total, page.Len())
	}
	first := page.Column("amount").Decimals()[0]
	if !strings.HasPrefix(first, "100.") {
		t.Fatalf("first of desc sort is %s, want the largest (100.x) of all 250 rows", first)
	}
	q.Offset = 200
	last, _ := Apply(tb, q, time.UTC)
	if last.Len() != 50 || !last.Column("amount").IsNull(49) || !last.Column("amount").IsNull(45) {
		t.Fatalf("last page: %d rows, nulls at the end: %v", last.Len(), last.Column("amount").Nulls())
	}
	// Ties on h keep id order.
	q2, _ := Query{Limit: 5, Sort: []SortKey{{Column: "h"}}}.Check([]string{"id", "h"})
	p2, _ := Apply(tb, q2, time.UTC)
	if got := fmt.Sprint(p2.Column("id").Int64s()); got != "[0 3 6 9 12]" {
		t.Fatalf("ties: %s", got)
	}
}

func TestApplyFiltersOnShownText(t *testing.T) {
	t.Parallel()
	tb := sample(t)
	page, total := Apply(tb, Query{Limit: 5, Filter: "CUST-12"}, time.UTC)
	if total != 10 || page.Len() != 5 { // cust-120..129
		t.Fatalf("filter total %d page %d", total, page.Len())
	}
	if _, total := Apply(tb, Query{Filter: "2024-03-14"}, time.UTC); total != 50 {
		t.Fatalf("date filter matched %d rows, want 50", total)
	}
}

func TestCheckAndParseSort(t *testing.T) {
	t.Parallel()
	keys, err := ParseSort("amount:desc, id")
	if err != nil || FormatSort(keys) != "amount:desc,id" {
		t.Fatalf("%v %v", keys, err)
	}
	if _, err := ParseSort("a:sideways"); err == nil || !strings.Contains(err.Error(), "not asc or desc") {
		t.Fatalf("bad direction: %v", err)
	}
	if _, err := (Query{Sort: keys}).Check([]string{"id"}); err == nil || !strings.Contains(err.Error(), `sort column "amount" is not in the result (columns: id)`) {
		t.Fatalf("unknown column: %v", err)
	}
	where, order := SQL(Query{Filter: "it's", Sort: []SortKey{{Column: `a"b`, Desc: true}}}, []string{"x"}, "rid")
	if where != `(contains(lower(CAST("x" AS VARCHAR)), 'it''s'))` || order != `"a""b" DESC NULLS LAST, rid` {
		t.Fatalf("sql: %s | %s", where, order)
	}
}

func TestCompareDecimals(t *testing.T) {
	t.Parallel()
	vals := []string{"-100.50", "-99.99", "-0.01", "0.00", "0.01", "9.99", "10.00", "100.00"}
	for i, a := range vals {
		for j, b := range vals {
			if got, want := compareDecimals(a, b), cmpInt(i, j); got != want {
				t.Errorf("compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
