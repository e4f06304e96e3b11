package tableview

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// TestColumnFilters: each form of a column filter, applied to the whole
// result with the others (AND) before the page is cut; comparisons read
// the value as the column's type.
func TestColumnFilters(t *testing.T) {
	t.Parallel()
	tb := sample(t)
	names := []string{"id", "amount", "h", "name", "d"}
	ny, _ := time.LoadLocation("America/New_York")
	count := func(fs ...ColumnFilter) int {
		t.Helper()
		q, err := Query{Limit: 10, Columns: fs}.Check(names)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckColumns(tb, q, ny); err != nil {
			t.Fatal(err)
		}
		_, total := Apply(tb, q, ny)
		return total
	}
	for _, c := range []struct {
		fs   []ColumnFilter
		want int
	}{
		{[]ColumnFilter{{"id", ">=200"}}, 50},
		{[]ColumnFilter{{"ID", "< 10"}}, 10}, // case-insensitive column, spaces after the operator
		{[]ColumnFilter{{"id", "=7"}}, 1},
		{[]ColumnFilter{{"id", "!=7"}}, 249},
		{[]ColumnFilter{{"id", ">9.5"}}, 240}, // a fraction against integers
		{[]ColumnFilter{{"amount", "null"}}, 5},
		{[]ColumnFilter{{"amount", "!NULL"}}, 245},
		{[]ColumnFilter{{"amount", ">=100"}}, 3}, // decimals as numbers: 100.x (rows 30, 131, 232)
		{[]ColumnFilter{{"name", "CUST-00"}}, 10},
		{[]ColumnFilter{{"name", ">cust-240"}}, 9},
		{[]ColumnFilter{{"d", "2024-03-12"}}, 50}, // contains the date's text
		{[]ColumnFilter{{"d", ">=2024-03-13"}}, 100},
		{[]ColumnFilter{{"h", ">0"}}, 166},
		{[]ColumnFilter{{"id", "<100"}, {"d", "=2024-03-10"}}, 20}, // all apply
		{[]ColumnFilter{{"id", ""}}, 250},                          // an empty box filters nothing
	} {
		if got := count(c.fs...); got != c.want {
			t.Errorf("%v: %d rows, want %d", c.fs, got, c.want)
		}
	}
	// A null never passes a comparison (SQL's rule).
	if got := count(ColumnFilter{"amount", "!=1"}); got != 245 {
		t.Errorf("!= with nulls: %d", got)
	}
	for _, c := range []struct{ f ColumnFilter }{{ColumnFilter{"id", ">abc"}}, {ColumnFilter{"d", "<yesterday"}}, {ColumnFilter{"amount", "=1.123456789012"}}} {
		q, err := Query{Columns: []ColumnFilter{c.f}}.Check(names)
		if err == nil {
			err = CheckColumns(tb, q, ny)
		}
		if !errors.Is(err, ErrBadQuery) || !strings.Contains(err.Error(), "filter on "+c.f.Column) {
			t.Errorf("%v: want a bad query naming the column, got %v", c.f, err)
		}
	}
	if _, err := (Query{Columns: []ColumnFilter{{"nope", "1"}}}).Check(names); !errors.Is(err, ErrBadQuery) || !strings.Contains(err.Error(), `"nope", which is not in the result`) {
		t.Errorf("unknown column: %v", err)
	}
	if _, err := (Query{Columns: []ColumnFilter{{"id", ">"}}}).Check(names); !errors.Is(err, ErrBadQuery) || !strings.Contains(err.Error(), "a value after >") {
		t.Errorf("an operator alone: %v", err)
	}
	where, _ := SQL(Query{Filter: "x", Columns: []ColumnFilter{{"id", ">=200"}, {"amount", "null"}, {"name", "o'k"}, {"d", "!=2024-03-12"}}}, []string{"id"}, "")
	if want := `(contains(lower(CAST("id" AS VARCHAR)), 'x')) AND "id" >= '200' AND "amount" IS NULL AND contains(lower(CAST("name" AS VARCHAR)), 'o''k') AND "d" <> '2024-03-12'`; where != want {
		t.Errorf("SQL:\n%s\nwant:\n%s", where, want)
	}
	if OrderKey(Query{Columns: []ColumnFilter{{"id", "1"}}}) == OrderKey(Query{}) {
		t.Error("the order key ignores column filters: a cached order would be reused")
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	tb := sample(t)
	got := map[string]ColumnSummary{}
	for _, s := range Summarize(tb, time.UTC) {
		got[s.Name] = s
	}
	want := map[string]ColumnSummary{
		"id":     {Name: "id", Type: "int64", Rows: 250, Min: "0", Max: "249"},
		"amount": {Name: "amount", Type: "decimal", Rows: 250, Nulls: 5},
		"name":   {Name: "name", Type: "string", Rows: 250, Distinct: 250},
		"d":      {Name: "d", Type: "date", Rows: 250, Min: "2024-03-10", Max: "2024-03-14"},
	}
	for k, w := range want {
		g := got[k]
		if k == "amount" {
			g.Min, g.Max = "", "" // checked below
		}
		hist := g.Hist
		g.Hist = nil
		if sum(hist) != g.Rows-g.Nulls && (k == "id" || k == "d" || k == "amount") {
			t.Errorf("%s: histogram %v counts %d values, want %d", k, hist, sum(hist), g.Rows-g.Nulls)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %+v, want %+v", k, g, w)
		}
	}
	if a := got["amount"]; a.Min != "0.0000000000" || !strings.HasPrefix(a.Max, "100.") {
		t.Errorf("amount min/max as numbers: %q..%q", a.Min, a.Max)
	}
	if h := got["name"].Hist; h != nil {
		t.Errorf("a text column has no histogram: %v", h)
	}
	big := sdk.NewTable(sdk.String("s"))
	for i := 0; i < MaxDistinct+5; i++ {
		big.Append(strings.Repeat("x", i%(MaxDistinct+3)+1))
	}
	if s := Summarize(big, time.UTC)[0]; s.Distinct != MaxDistinct || !s.DistinctMore {
		t.Errorf("a bounded distinct count: %+v", s)
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// The header histogram: HistBins equal-width bins from min to max, the
// maximum in the last; nulls and NaN left out; none for a constant column.
func TestSummaryHistogram(t *testing.T) {
	t.Parallel()
	tb := sdk.NewTable(sdk.Int64("n"), sdk.Float64("f"), sdk.Int64("same"), sdk.Timestamp("at"))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < HistBins; i++ {
		f := float64(i * i)
		if i == 3 {
			f = math.NaN()
		}
		tb.Append(int64(i), f, int64(7), base.Add(time.Duration(i)*time.Hour))
	}
	tb.Append(nil, nil, nil, nil)
	got := Summarize(tb, time.UTC)
	ones := make([]int, HistBins)
	for i := range ones {
		ones[i] = 1
	}
	if !reflect.DeepEqual(got[0].Hist, ones) {
		t.Errorf("0..15 in 16 bins: %v, want one a bin", got[0].Hist)
	}
	if !reflect.DeepEqual(got[3].Hist, ones) {
		t.Errorf("16 hours in 16 bins: %v, want one a bin", got[3].Hist)
	}
	// Squares 0..225 but 9 (NaN): width 225/16; 15 values binned.
	if h := got[1].Hist; sum(h) != HistBins-1 || h[0] != 3 || h[HistBins-1] != 1 {
		t.Errorf("squares: %v", h)
	}
	if got[2].Hist != nil {
		t.Errorf("a constant column: %v, want no histogram", got[2].Hist)
	}
}
