package engine

import (
	"fmt"
	"path/filepath"
	"slices"
)

// Two backfills of one pipeline over the same partitions compute the same
// thing, and the later one's publishes all stop as conflicts (newer work
// was published meanwhile): a double-click on Launch, or a relaunch in a
// second tab while the first still runs, ended "needs attention" with a
// conflict per partition. Airflow and Dagster refuse such a second run; a
// user launch is refused the same way, naming the running backfill and
// what to do, unless it asks to run both (AllowOverlap). Triggers launch
// through LaunchAs and are not refused: their catch-up owns its ranges.

// OverlapError says that a running backfill of the same pipeline already
// covers part of the range.
type OverlapError struct {
	Pipeline, Running string
	From, To          string // the running backfill's range (pipeline keys)
	Dir               string
}

func (e *OverlapError) Error() string {
	return fmt.Sprintf("backfill %s of pipeline %s is already running over %s..%s, which overlaps this range: both would compute the same partitions, "+
		"and the later publishes would stop as conflicts. Wait for it, cancel it (strata backfill cancel %s %s), or launch with \"allow_overlap\": true to run both",
		e.Running, e.Pipeline, e.From, e.To, e.Dir, e.Running)
}

// overlapping returns the error for the first backfill running in this
// process whose pipeline and range overlap t's; nil when none does.
// Partition keys of one interval sort as their partitions do.
func (e *Engine) overlapping(t *target) *OverlapError {
	e.mu.Lock()
	defer e.mu.Unlock()
	for id, b := range e.backfills {
		o := b.t
		if o.pl.ID != t.pl.ID || o.pspec.Interval != t.pspec.Interval {
			continue
		}
		if t.from <= o.to && o.from <= t.to && !disjointWhere(t.box.Where, o.box.Where) {
			return &OverlapError{Pipeline: t.pl.ID, Running: id, From: o.from, To: o.to, Dir: filepath.Clean(e.proj.Dir)}
		}
	}
	return nil
}

// disjointWhere reports whether two boxes select no common value of some
// dimension (--where region=eu beside --where region=us), so that their
// cells cannot overlap whatever their time ranges.
func disjointWhere(a, b map[string][]string) bool {
	for dim, av := range a {
		bv, ok := b[dim]
		if !ok {
			continue
		}
		common := false
		for _, v := range av {
			if slices.Contains(bv, v) {
				common = true
				break
			}
		}
		if !common {
			return true
		}
	}
	return false
}
