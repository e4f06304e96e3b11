package engine

import (
	"slices"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// Rollups in the counted planner. A week × region rollup of a day ×
// region pipeline is a box of its own: the weeks the backfill's days
// touch, crossed with the same selection of values. Its cells are counted
// by the same SQL as the days' (its versions read other cells of the
// pipeline's products, so they take the rest path, where a day published
// after the week and not read by it makes the week stale, as
// rollup_unread.go decides). Whether a week runs because one of its days
// runs is counted apart (plan_rollup_count.go), from each day's decision
// and the day → week map computed here.

// rollupBox is t seen from one coarse interval of its blocks.
type rollupBox struct {
	interval string
	blocks   []*project.Block
	t        *target // the coarse cells the backfill's range touches
	// weekOf maps each time key of t's range to the coarse time key
	// holding it; fines counts t's time keys per coarse time key.
	weekOf map[string]string
	fines  map[string]int
}

// rollupBoxes are t's rollup boxes, by interval; ok false when a rollup
// is not a box the SQL can count: one across a dimension (a week of all
// regions over day × region cells), or time partitions that do not nest.
func (t *target) rollupBoxes(coarse map[string][]*project.Block) ([]*rollupBox, bool) {
	if len(coarse) == 0 {
		return nil, true
	}
	if t.pspec.Interval == partitions.None {
		return nil, false
	}
	var out []*rollupBox
	for _, iv := range sortedKeys(coarse) {
		blocks := coarse[iv]
		cs, err := t.specOf(blocks[0].Partitions)
		if err != nil || cs.Interval == partitions.None || cs.TimePos != t.pspec.TimePos || !slices.Equal(cs.DimNames(), t.pspec.DimNames()) {
			return nil, false
		}
		ft, ct := t.pspec.TimeOnly(), cs.TimeOnly()
		it, err := ft.Iter(t.box.From, t.box.To)
		if err != nil {
			return nil, false
		}
		rb := &rollupBox{interval: iv, blocks: blocks, weekOf: map[string]string{}, fines: map[string]int{}}
		var weeks []string
		for p := range it {
			cps := ft.Containing(p, ct)
			if len(cps) != 1 {
				return nil, false
			}
			w := cps[0].Key
			if len(weeks) == 0 || weeks[len(weeks)-1] != w {
				weeks = append(weeks, w)
			}
			rb.weekOf[p.Key] = w
			rb.fines[w]++
		}
		if len(weeks) == 0 {
			continue
		}
		// The weeks are a range of the coarse calendar: a box.
		wit, err := ct.Iter(weeks[0], weeks[len(weeks)-1])
		if err != nil {
			return nil, false
		}
		i := 0
		for w := range wit {
			if i >= len(weeks) || weeks[i] != w.Key {
				return nil, false
			}
			i++
		}
		if i != len(weeks) {
			return nil, false
		}
		ctg := &target{spec: t.spec, pl: t.pl, pin: t.pin, pspec: cs, from: weeks[0], to: weeks[len(weeks)-1],
			box: partitions.Box{From: weeks[0], To: weeks[len(weeks)-1], Where: t.box.Where}}
		if ctg.total, err = cs.CountBox(ctg.box); err != nil {
			return nil, false
		}
		rb.t = ctg
		out = append(out, rb)
	}
	return out, true
}
