package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// A backfill plans once, at launch, and keeps that plan across pause,
// resume, restart and retry: which partitions it runs, which it skips, and
// the current version of each product partition it plans to replace. A
// pass that re-read the catalog instead would take work another run
// published while the backfill was stopped for its own starting point:
// a day missing at launch and published by someone else meanwhile would
// resume as "skipped: current v1", while the same thing seen by an
// uninterrupted backfill is a compare-and-set conflict. With the plan kept,
// both are the same conflict, listed with both versions.

// launchPlan is a backfill's plan as of its launch, by run id suffix: the
// partition key of a fine partition, "interval:key" of a rollup.
type launchPlan map[string]plannedRun

// plannedRun is one partition's part of the plan.
type plannedRun struct {
	Run     bool           `json:"r,omitempty"`
	State   string         `json:"s"`           // missing, failed, stale, current vN (as the plan said)
	BasedOn map[string]int `json:"b,omitempty"` // product -> current version at launch (absent: none)
}

// makeLaunchPlan classifies every partition of t (and every rollup its
// range touches) against the catalog as it is now.
func makeLaunchPlan(t *target, pd *planData) (launchPlan, error) {
	lp := launchPlan{}
	it, err := t.pspec.IterBox(t.box)
	if err != nil {
		return nil, err
	}
	rollups := newRollupTracker(t, pd)
	for p := range it {
		pp := pd.classify(t.pl, p, string(t.pspec.Interval), pd.fine, t.spec.Reprocess)
		pr := plannedRun{Run: pp.Action == "run", State: pp.State, BasedOn: pd.currentOf(t, pd.fine, p.Key)}
		if !pr.unplanned() {
			lp[p.Key] = pr
		}
		rollups.add(p, false)
	}
	for _, r := range rollups.all() {
		pp := pd.classify(t.pl, r.part, r.interval, r.blocks, t.spec.Reprocess)
		lp[r.interval+":"+r.part.Key] = plannedRun{Run: pp.Action == "run", State: pp.State, BasedOn: pd.currentOf(t, r.blocks, r.part.Key)}
	}
	return lp, nil
}

// unplanned is the plan of a cell with nothing at launch (no version of
// any product, no failed run): it runs, based on no version. Such cells,
// all of a first backfill's, are left out of the recorded plan, which of
// gives back for a cell key it does not hold: a backfill of millions of
// new cells records (and every pass reads back) an empty plan instead of
// one entry per cell.
var unplanned = plannedRun{Run: true, State: "missing"}

func (pr plannedRun) unplanned() bool { return pr.Run && pr.State == "missing" && pr.BasedOn == nil }

// currentOf is the current version of each product of blocks at
// partition key (products without one are left out).
func (pd *planData) currentOf(t *target, blocks []*project.Block, key string) map[string]int {
	var out map[string]int
	for _, b := range blocks {
		prod := ProductName(t.pl, b)
		if vi, ok := pd.based()[prod][key]; ok {
			if out == nil {
				out = map[string]int{}
			}
			out[prod] = vi.version
		}
	}
	return out
}

// of returns the plan of run runID of backfill id (ok false when the plan
// does not know it, or the backfill has no plan: it was launched before
// plans were kept).
func (lp launchPlan) of(id, runID string) (plannedRun, bool) {
	if lp == nil {
		return plannedRun{}, false
	}
	key := strings.TrimPrefix(runID, id+":")
	pr, ok := lp[key]
	if !ok && !isRollupKey(key) {
		// a cell left out: nothing at launch (rollups, "interval:key",
		// are all recorded)
		return unplanned, true
	}
	return pr, ok
}

// isRollupKey says whether a run id's suffix names a rollup
// ("interval:key") rather than a cell.
func isRollupKey(key string) bool {
	iv, _, rollup := strings.Cut(key, ":")
	return rollup && partitions.Interval(iv).Valid()
}

// basedOn is the compare-and-set base of a run for blocks: product -> the
// version current at launch (0: none).
func (pr plannedRun) basedOn(pl *project.Pipeline, blocks []*project.Block) map[string]int {
	out := make(map[string]int, len(blocks))
	for _, b := range blocks {
		prod := ProductName(pl, b)
		out[prod] = pr.BasedOn[prod]
	}
	return out
}

func (pr plannedRun) action() string {
	if pr.Run {
		return "run"
	}
	return "skip"
}

func (lp launchPlan) encode() (string, error) {
	b, err := json.Marshal(lp)
	return string(b), err
}

// loadLaunchPlan reads the plan a backfill was launched with: its JSON
// plan (nil for a backfill launched before plans were kept), or, for a
// plan kept as rows (backfill_plan_rows.go), the reader of its pages.
func (e *Engine) loadLaunchPlan(ctx context.Context, id string) (planSource, error) {
	var raw sql.NullString
	if err := e.wh.DB().QueryRowContext(ctx, `SELECT plan FROM _strata.backfills WHERE backfill_id = ?`, id).Scan(&raw); err != nil {
		return nil, fmt.Errorf("read the plan of backfill %s: %w", id, err)
	}
	if !raw.Valid || raw.String == "" {
		return launchPlan(nil), nil
	}
	if raw.String == planRowsMarker {
		return &pagedPlan{e: e, id: id, cells: map[string]plannedRun{}, rollups: map[string]plannedRun{}}, nil
	}
	var lp launchPlan
	if err := json.Unmarshal([]byte(raw.String), &lp); err != nil {
		return nil, fmt.Errorf("backfill %s: its recorded plan is unreadable: %w", id, err)
	}
	e.loaded("plan", len(lp))
	return lp, nil
}
