package tableview

import (
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
)

// MaxDistinct bounds the distinct count of a column summary: past it the
// count reads "more than MaxDistinct", so a million distinct strings cost a
// bounded set, not a million-entry map.
const MaxDistinct = 10_000

// ColumnSummary is what the header of a result column says of the whole
// result (not the page): its type, how many nulls, and for ordered types
// its smallest and largest value (as the grid's text), for text and
// booleans how many distinct values.
type ColumnSummary struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Rows  int    `json:"rows"`
	Nulls int    `json:"nulls"`
	Min   string `json:"min,omitempty"`
	Max   string `json:"max,omitempty"`
	// Distinct counts the different non-null values of a text or boolean
	// column, up to MaxDistinct; DistinctMore says there are more.
	Distinct     int  `json:"distinct,omitempty"`
	DistinctMore bool `json:"distinct_more,omitempty"`
	// Hist, for a numeric or time column, counts the non-null values in
	// HistBins equal-width bins from Min to Max (the last bin includes Max),
	// for the header's small histogram. Empty when all values are equal
	// or null, or for text and booleans.
	Hist []int `json:"hist,omitempty"`
}

// HistBins is how many bars a header's histogram draws: enough to see a
// shape, few enough for a header cell and the JSON of many columns.
const HistBins = 16

// Summarize reads every column of t once. Instants are written in loc.
func Summarize(t *sdk.Table, loc *time.Location) []ColumnSummary {
	out := make([]ColumnSummary, 0, len(t.Columns()))
	for _, c := range t.Columns() {
		out = append(out, summarize(c, t.Len(), loc))
	}
	return out
}

func summarize(c *sdk.Column, n int, loc *time.Location) ColumnSummary {
	s := ColumnSummary{Name: c.Name, Type: c.Type.String(), Rows: n}
	switch c.Type {
	case sdk.TypeString, sdk.TypeBool:
		seen := map[string]struct{}{}
		for i := 0; i < n; i++ {
			if c.IsNull(i) {
				s.Nulls++
				continue
			}
			if s.DistinctMore {
				continue
			}
			v := tableio.FormatValue(c, i, loc)
			if _, ok := seen[v]; !ok {
				if len(seen) == MaxDistinct {
					s.DistinctMore = true
					continue
				}
				seen[v] = struct{}{}
			}
		}
		s.Distinct = len(seen)
		return s
	}
	lo, hi := -1, -1
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			s.Nulls++
			continue
		}
		if lo < 0 {
			lo, hi = i, i
			continue
		}
		if compareCells(c, i, lo, false) < 0 {
			lo = i
		}
		if compareCells(c, i, hi, false) > 0 {
			hi = i
		}
	}
	if lo >= 0 {
		s.Min, s.Max = tableio.FormatValue(c, lo, loc), tableio.FormatValue(c, hi, loc)
		s.Hist = histogram(c, n, lo, hi)
	}
	return s
}

// histogram bins the non-null values of c between its smallest (row lo)
// and largest (row hi) value: a second pass over the column, as floats,
// so its cost is one conversion and one increment a row (about as much
// again as the min/max pass). nil when there is nothing to bin.
func histogram(c *sdk.Column, n, lo, hi int) []int {
	val := numeric(c)
	if val == nil {
		return nil
	}
	a, z := val(lo), val(hi)
	if math.IsNaN(a) || math.IsNaN(z) {
		a, z = math.Inf(1), math.Inf(-1) // NaN sorts first: bound the numbers
		for i := 0; i < n; i++ {
			if v := val(i); !c.IsNull(i) && !math.IsNaN(v) {
				a, z = min(a, v), max(z, v)
			}
		}
	}
	if !(z > a) || math.IsInf(z-a, 0) {
		return nil // all equal, NaN bounds or a span past float64
	}
	h := make([]int, HistBins)
	w := (z - a) / HistBins
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			continue
		}
		v := val(i)
		if math.IsNaN(v) {
			continue
		}
		b := int((v - a) / w)
		if b >= HistBins {
			b = HistBins - 1 // the maximum itself
		} else if b < 0 {
			b = 0
		}
		h[b]++
	}
	return h
}

// numeric reads row i of c as a float64 for binning (times as Unix
// nanoseconds); nil for a column that has no numeric order to bin.
func numeric(c *sdk.Column) func(int) float64 {
	switch c.Type {
	case sdk.TypeInt64:
		v := c.Int64s()
		return func(i int) float64 { return float64(v[i]) }
	case sdk.TypeUint64:
		v := c.Uint64s()
		return func(i int) float64 { return float64(v[i]) }
	case sdk.TypeFloat64:
		v := c.Float64s()
		return func(i int) float64 { return v[i] }
	case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
		v := c.Times()
		return func(i int) float64 { return float64(v[i].UnixNano()) }
	case sdk.TypeDecimal:
		// The exact text, as a float for binning only (min and max stay exact).
		v := c.Decimals()
		return func(i int) float64 { f, _ := strconv.ParseFloat(v[i], 64); return f }
	case sdk.TypeInt128:
		v := c.BigInts()
		return func(i int) float64 { f, _ := new(big.Float).SetInt(v[i]).Float64(); return f }
	}
	return nil
}
