package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
)

// boxSQL spells a box over a key column.
type boxSQL struct {
	sel        [][]string
	times      []string
	hasTime    bool
	timePos    int
	nparts     int
	start, end time.Time // the box's time range, when hasTime
}

func newBoxSQL(t *target) (*boxSQL, error) {
	s := t.pspec
	sel, err := s.Selection(t.box)
	if err != nil {
		return nil, err
	}
	b := &boxSQL{sel: sel, hasTime: s.Interval != partitions.None, timePos: s.TimePos, nparts: len(s.Dims)}
	if b.hasTime {
		b.nparts++
		it, err := s.TimeOnly().Iter(t.box.From, t.box.To)
		if err != nil {
			return nil, err
		}
		for p := range it {
			if len(b.times) == 0 {
				b.start = p.Start
			}
			b.times = append(b.times, p.Key)
			b.end = p.End
		}
	}
	return b, nil
}

func (b *boxSQL) part(col string, i int) string {
	return fmt.Sprintf("split_part(%s, '%s', %d)", col, partitions.KeySep, i+1)
}

// in is the condition "col is a cell of the box", spelled as IterBox
// spells it (its part count, its time part one of the range's keys, each
// value one of the selected). split_part and a semi join per part:
// string_split builds a list per row and a long IN list is a chain of
// comparisons, each costing seconds of DuckDB CPU over millions of versions.
func (b *boxSQL) in(col string) string {
	if b.nparts == 1 && b.hasTime {
		return col + " IN " + sqlArray(b.times)
	}
	if combos := b.combos(); combos != nil && b.timePos == 0 {
		// The values after the time part, as one of the selection's
		// combinations: one semi join for all of them (and no value
		// holds a separator, so no part too many either).
		tail := fmt.Sprintf("substr(%s, strpos(%s, '%s') + 1)", col, col, partitions.KeySep)
		return "(" + b.part(col, 0) + " IN " + sqlArray(b.times) + " AND " + tail + " IN " + sqlArray(combos) + ")"
	}
	// no more parts than the layout's: not nparts separators
	conds := []string{col + " NOT LIKE '" + strings.Repeat("%"+partitions.KeySep, b.nparts) + "%'"}
	if b.hasTime {
		conds = append(conds, b.part(col, b.timePos)+" IN "+sqlArray(b.times))
	}
	for i, vs := range b.sel {
		pos := i
		if b.hasTime && i >= b.timePos {
			pos++
		}
		conds = append(conds, b.part(col, pos)+" IN "+sqlArray(vs))
	}
	return "(" + strings.Join(conds, " AND ") + ")"
}

// maxCombos bounds the value combinations in spelled out in one list.
const maxCombos = 100_000

// combos are the selection's value combinations joined as keys join them
// (nil past maxCombos, or with fewer than two value dimensions).
func (b *boxSQL) combos() []string {
	if len(b.sel) < 2 {
		return nil
	}
	n := 1
	for _, vs := range b.sel {
		if n *= len(vs); n > maxCombos {
			return nil
		}
	}
	out := []string{""}
	for i, vs := range b.sel {
		next := make([]string, 0, len(out)*len(vs))
		for _, prefix := range out {
			for _, v := range vs {
				if i > 0 {
					v = prefix + partitions.KeySep + v
				}
				next = append(next, v)
			}
		}
		out = next
	}
	return out
}

// inTime is the condition "col's time part is one of the box's" (in when
// the box has no time): implied by in, cheaper.
func (b *boxSQL) inTime(col string) string {
	if !b.hasTime || b.nparts == 1 {
		return b.in(col)
	}
	if b.timePos == 0 && sortedSameLength(b.times) {
		// Time keys of one width in string order (days, hours, weeks,
		// months): a cell's key lies between the first and the last
		// followed by '}', the character after the separator '|'. Two
		// string comparisons, no semi join.
		return fmt.Sprintf("(%s >= %s AND %s < %s)", col, sqlQuote(b.times[0]), col, sqlQuote(b.times[len(b.times)-1]+"}"))
	}
	return b.part(col, b.timePos) + " IN " + sqlArray(b.times)
}

// sortedSameLength reports whether keys all have one length and are in
// string order: then their string order is the keys' order, and a key
// with a suffix sorts among them as its prefix does.
func sortedSameLength(keys []string) bool {
	for i := 1; i < len(keys); i++ {
		if len(keys[i]) != len(keys[0]) || keys[i] <= keys[i-1] {
			return false
		}
	}
	return len(keys) > 0 && !strings.ContainsAny(strings.Join(keys, ""), "|}")
}

// layout is the condition "col has the layout's part count and a time
// part of the box" (any values): a key whose start inside the box's range
// says which cell it is (the unread check, rollup_unread.go).
func (b *boxSQL) layout(col string) string {
	if b.nparts == 1 {
		return col + " IN " + sqlArray(b.times)
	}
	return "(" + col + " NOT LIKE '" + strings.Repeat("%"+partitions.KeySep, b.nparts) + "%' AND " +
		col + " LIKE '" + strings.Repeat("%"+partitions.KeySep, b.nparts-1) + "%' AND " +
		b.part(col, b.timePos) + " IN " + sqlArray(b.times) + ")"
}
