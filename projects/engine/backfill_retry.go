package engine

import (
	"context"
	"fmt"
)

// RetryPlan is the dry run of a retry: which pipeline version it would run
// and how many partitions.
type RetryPlan struct {
	BackfillID string `json:"backfill_id"`
	Snapshot   string `json:"snapshot"`      // the pipeline version the retry runs
	Was        string `json:"was,omitempty"` // the backfill's version until now, when the retry changes it
	// CodeChange: with --use-current-code the files have changed since the
	// backfill's version, so the retried partitions run other code than
	// the ones that succeeded.
	CodeChange bool           `json:"code_change"`
	ToRun      int            `json:"to_run"`   // partitions that did not succeed (nor were skipped)
	ByState    map[string]int `json:"by_state"` // failed, cancelled, conflict, running (left by a crash), not started
}

// PlanRetry says what Retry(ctx, id, useCurrentCode) would do; nothing runs.
func (e *Engine) PlanRetry(ctx context.Context, id string, useCurrentCode bool) (*RetryPlan, error) {
	spec, err := e.backfillSpec(ctx, id)
	if err != nil {
		return nil, err
	}
	hash, err := e.backfillVersion(ctx, id)
	if err != nil {
		return nil, err
	}
	rp := &RetryPlan{BackfillID: id, Snapshot: hash, ByState: map[string]int{}}
	pl := spec.Pipeline
	if useCurrentCode || hash == "" {
		cur, err := e.CurrentVersion(pl)
		if err != nil {
			return nil, err
		}
		rp.Snapshot = cur
		if cur != hash {
			rp.Was, rp.CodeChange = hash, hash != ""
		}
	}
	var t *target
	if p, err := e.backfillPin(ctx, id, pl); err == nil && !useCurrentCode {
		t, err = e.target(spec, p.pl)
		if err != nil {
			return nil, err
		}
	} else {
		live, err := e.Pipeline(pl)
		if err != nil {
			return nil, err
		}
		if t, err = e.target(spec, live); err != nil {
			return nil, err
		}
	}
	states, err := e.partitionStates(ctx, id)
	if err != nil {
		return nil, err
	}
	seen := 0
	for _, s := range states {
		seen++
		switch s {
		case StateSucceeded, StateSkipped:
		default:
			rp.ByState[string(s)]++
			rp.ToRun++
		}
	}
	if left := t.total + t.rollups - seen; left > 0 {
		rp.ByState["not started"] = left
		rp.ToRun += left
	}
	return rp, nil
}

// String is the retry plan as the CLI prints it.
func (rp *RetryPlan) String() string {
	s := fmt.Sprintf("retry of %s: %d partitions to run %v; pipeline version %s", rp.BackfillID, rp.ToRun, rp.ByState, shortHash(rp.Snapshot))
	switch {
	case rp.CodeChange:
		s += fmt.Sprintf(" (CHANGE: the backfill ran version %s; the retried partitions run the current code)", shortHash(rp.Was))
	case rp.Was == "" && rp.Snapshot != "":
		s += " (the backfill's own version)"
	}
	return s
}
