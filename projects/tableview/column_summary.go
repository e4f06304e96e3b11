package tableview

import (
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
}

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
	}
	return s
}
