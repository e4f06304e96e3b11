package tableview

import (
	"cmp"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
)

// Apply returns the page q asks for of t (already checked with Check) and
// how many rows passed the filter. Cell text for the filter is the CSV text
// of the value (instants in loc), so what a user sees is what they can find.
// t is not changed; the page is a new table.
func Apply(t *sdk.Table, q Query, loc *time.Location) (*sdk.Table, int) {
	idx := Order(t, q, loc)
	return Slice(t, idx, q), len(idx)
}

// Slice is the page q asks for of the rows order gives (from Order).
func Slice(t *sdk.Table, order []int, q Query) *sdk.Table {
	lo := min(q.Offset, len(order))
	hi := len(order)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, len(order))
	}
	return take(t, order[lo:hi])
}

// Order is the rows of t that pass q's filter, in q's sort order. It
// depends only on the filter and the sort, so a caller paging through one
// result keeps it and slices it (OrderKey names it).
func Order(t *sdk.Table, q Query, loc *time.Location) []int {
	cols := t.Columns()
	idx := make([]int, 0, t.Len())
	needle := strings.ToLower(q.Filter)
	preds, _ := compileFilters(t, q.Columns, loc) // checked by CheckColumns; a bad one keeps nothing out
rows:
	for i := 0; i < t.Len(); i++ {
		for _, p := range preds {
			if !p(i) {
				continue rows
			}
		}
		if needle == "" || rowContains(cols, i, needle, loc) {
			idx = append(idx, i)
		}
	}
	if len(q.Sort) > 0 {
		keys := make([]*sdk.Column, len(q.Sort))
		for i, k := range q.Sort {
			keys[i] = t.Column(k.Column)
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			for i, c := range keys {
				if r := compareCells(c, a, b, q.Sort[i].Desc); r != 0 {
					return r
				}
			}
			return 0
		})
	}
	return idx
}

// OrderKey identifies the order Order returns for q.
func OrderKey(q Query) string {
	k := FormatSort(q.Sort) + "\x00" + q.Filter
	for _, f := range q.Columns {
		k += "\x00" + f.Column + "\x01" + f.Expr
	}
	return k
}

func rowContains(cols []*sdk.Column, i int, needle string, loc *time.Location) bool {
	for _, c := range cols {
		if !c.IsNull(i) && strings.Contains(strings.ToLower(tableio.FormatValue(c, i, loc)), needle) {
			return true
		}
	}
	return false
}

// compareCells orders rows a and b of c: nulls last whichever the direction.
func compareCells(c *sdk.Column, a, b int, desc bool) int {
	na, nb := c.IsNull(a), c.IsNull(b)
	switch {
	case na && nb:
		return 0
	case na:
		return 1
	case nb:
		return -1
	}
	r := 0
	switch c.Type {
	case sdk.TypeInt64:
		r = cmp.Compare(c.Int64s()[a], c.Int64s()[b])
	case sdk.TypeUint64:
		r = cmp.Compare(c.Uint64s()[a], c.Uint64s()[b])
	case sdk.TypeFloat64:
		r = cmp.Compare(c.Float64s()[a], c.Float64s()[b]) // NaN first, as cmp does; DuckDB puts NaN last
	case sdk.TypeBool:
		r = cmp.Compare(boolInt(c.Bools()[a]), boolInt(c.Bools()[b]))
	case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
		r = c.Times()[a].Compare(c.Times()[b])
	case sdk.TypeInt128:
		r = c.BigInts()[a].Cmp(c.BigInts()[b])
	case sdk.TypeDecimal:
		r = compareDecimals(c.Decimals()[a], c.Decimals()[b])
	default:
		r = strings.Compare(c.Strings()[a], c.Strings()[b])
	}
	if desc {
		return -r
	}
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compareDecimals compares two decimal texts normalised to one scale
// (sdk.ParseDecimal: no leading zeros, exactly scale fraction digits, no
// "-0") without parsing them: by sign, then by the length of the integer
// part, then digit by digit.
func compareDecimals(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	switch {
	case na && !nb:
		return -1
	case !na && nb:
		return 1
	}
	ma, mb := strings.TrimPrefix(a, "-"), strings.TrimPrefix(b, "-")
	r := cmp.Compare(len(ma), len(mb)) // equal scales: a longer text has a longer integer part
	if r == 0 {
		r = strings.Compare(ma, mb)
	}
	if na {
		return -r
	}
	return r
}

// take copies rows idx of t, in that order, into a new table.
func take(t *sdk.Table, idx []int) *sdk.Table {
	out := sdk.NewTable()
	for _, c := range t.Columns() {
		var nulls []bool
		if c.HasNulls() {
			nulls = make([]bool, len(idx))
			for j, i := range idx {
				nulls[j] = c.IsNull(i)
			}
		}
		var nc *sdk.Column
		switch c.Type {
		case sdk.TypeInt64:
			nc = sdk.Int64sFrom(c.Name, pick(c.Int64s(), idx), nulls)
		case sdk.TypeUint64:
			nc = sdk.Uint64sFrom(c.Name, pick(c.Uint64s(), idx), nulls)
		case sdk.TypeFloat64:
			nc = sdk.Float64sFrom(c.Name, pick(c.Float64s(), idx), nulls)
		case sdk.TypeBool:
			nc = sdk.BoolsFrom(c.Name, pick(c.Bools(), idx), nulls)
		case sdk.TypeTime:
			nc = sdk.TimesFrom(c.Name, pick(c.Times(), idx), nulls)
		case sdk.TypeDate:
			nc = sdk.DatesFrom(c.Name, pick(c.Times(), idx), nulls)
		case sdk.TypeTimestamp:
			nc = sdk.TimestampsFrom(c.Name, pick(c.Times(), idx), nulls)
		case sdk.TypeInt128:
			nc = sdk.BigIntsFrom(c.Name, pick[*big.Int](c.BigInts(), idx), nulls)
		case sdk.TypeDecimal:
			nc = sdk.DecimalsFrom(c.Name, c.Precision, c.Scale, pick(c.Decimals(), idx), nulls)
		default:
			nc = sdk.StringsFrom(c.Name, pick(c.Strings(), idx), nulls)
		}
		out.AddColumn(nc)
	}
	return out
}

func pick[T any](vals []T, idx []int) []T {
	out := make([]T, len(idx))
	for j, i := range idx {
		out[j] = vals[i]
	}
	return out
}
