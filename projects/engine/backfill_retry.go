package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	CodeChange bool `json:"code_change"`
	ToRun      int  `json:"to_run"` // partitions that did not succeed (nor were skipped), and rollups skipped for their failed days
	// RerunChildren counts the dynamic children of those partitions that
	// succeeded under another pipeline version: they run again rather than
	// being reused (a retry of the same version reuses them).
	RerunChildren int            `json:"rerun_children"`
	ByState       map[string]int `json:"by_state"` // failed, cancelled, conflict, running (left by a crash), not started
	// Notice, when the files differ from the version a plain retry runs,
	// says that it reruns that version as launched and how to run the
	// files as they are now (see CodeChangedHint).
	Notice string `json:"notice,omitempty"`
	// Problem says why the retry cannot run the backfill's own version
	// (its snapshot's files are gone or were edited): only a retry with
	// the current code can run.
	Problem string `json:"problem,omitempty"`
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
	if !useCurrentCode && hash != "" {
		if cur, err := e.CurrentVersion(pl); err == nil && cur != hash {
			rp.Notice = CodeChangedHint(hash, cur)
		}
	}
	var t *target
	p, perr := e.backfillPin(ctx, id, pl)
	if perr != nil && !useCurrentCode {
		rp.Problem = perr.Error()
	}
	if perr == nil && !useCurrentCode {
		t, err = e.target(ctx, spec, p.pl)
		if err != nil {
			return nil, err
		}
	} else {
		live, err := e.Pipeline(pl)
		if err != nil {
			return nil, err
		}
		if t, err = e.target(ctx, spec, live); err != nil {
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
		case StateSucceeded, StateSkipped, StateConflict: // a conflict is resolved, not retried
		default:
			rp.ByState[string(s)]++
			rp.ToRun++
		}
	}
	// A rollup skipped because some of its days failed is decided again
	// once the retry reruns them (backfill_run.go finishRollup), and runs
	// unless they fail again: the dry run said "1 partition to run" and
	// then ran it and its week.
	if n, err := e.skippedForFailures(ctx, id); err != nil {
		return nil, err
	} else if n > 0 {
		rp.ByState["skipped rollup"] = n
		rp.ToRun += n
	}
	if left := t.total + t.rollups - seen; left > 0 {
		rp.ByState["not started"] = left
		rp.ToRun += left
	}
	if rp.RerunChildren, err = e.staleChildren(ctx, id, rp.Snapshot); err != nil {
		return nil, err
	}
	return rp, nil
}

// CodeChangedHint says that the files differ from a backfill's pipeline
// version was: a plain retry reruns was as launched (the code that failed,
// when a person fixed a block since), and how to run the files as they are
// now (version now). A retry that reran the old code and failed the same way
// used to suggest the same retry again.
func CodeChangedHint(was, now string) string {
	return fmt.Sprintf("the files have changed since this backfill's pipeline version %s (now %s): a retry reruns %s as launched; "+
		"to run the files as they are now, retry with the current code (strata backfill retry --use-current-code; API use_current_code=true)",
		shortHash(was), shortHash(now), shortHash(was))
}

// skippedForFailures is why a rollup was skipped when some of its
// partitions failed.
const skippedForFailures = "skipped: some of its partitions failed"

// skippedForFailures counts the rollups of backfill id whose latest state
// is skipped because some of their partitions failed.
func (e *Engine) skippedForFailures(ctx context.Context, id string) (int, error) {
	var n int
	err := e.wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM (SELECT arg_max(state, seq) AS state, arg_max(error, seq) AS error
		FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY `+slotSQL+`) WHERE state = 'skipped' AND error = ?`,
		id, skippedForFailures).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count the rollups a retry of %s decides again: %w", id, err)
	}
	return n, nil
}

// staleChildren counts the dynamic children that succeeded in the runs a
// retry of backfill id reruns, under a pipeline version other than
// snapshot.
func (e *Engine) staleChildren(ctx context.Context, id, snapshot string) (int, error) {
	var n int
	// By slot: a retry is a new attempt of the partition, and reuses the
	// children any earlier attempt computed (childOutputs).
	err := e.wh.DB().QueryRowContext(ctx, `WITH retried AS (
			SELECT `+slotSQL+` AS slot FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY slot
			HAVING arg_max(state, seq) NOT IN ('succeeded', 'skipped', 'conflict'))
		SELECT count(*) FROM (SELECT DISTINCT `+slotSQL+`, block_id, child_key FROM _strata.run_events
			WHERE backfill_id = ? AND child_key <> '' AND state = 'succeeded' AND output IS NOT NULL
			AND `+slotSQL+` IN (SELECT slot FROM retried)
			EXCEPT SELECT DISTINCT `+slotSQL+`, block_id, child_key FROM _strata.run_events
			WHERE backfill_id = ? AND child_key <> '' AND state = 'succeeded' AND output IS NOT NULL AND snapshot = ?)`, id, id, id, snapshot).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count the dynamic children a retry of %s reruns: %w", id, err)
	}
	return n, nil
}

// String is the retry plan as the CLI prints it.
func (rp *RetryPlan) String() string {
	s := fmt.Sprintf("retry of %s: %d partitions to run%s; pipeline version %s", rp.BackfillID, rp.ToRun, byStateString(rp.ByState), shortHash(rp.Snapshot))
	switch {
	case rp.CodeChange:
		s += fmt.Sprintf(" (CHANGE: the backfill ran version %s; the retried partitions run the current code)", shortHash(rp.Was))
	case rp.Was == "" && rp.Snapshot != "":
		s += " (the backfill's own version)"
	}
	if rp.Problem != "" {
		s += "; CANNOT RUN: " + rp.Problem
	}
	if rp.Notice != "" {
		s += "\nNOTE: " + rp.Notice
	}
	if rp.RerunChildren > 0 {
		s += fmt.Sprintf("; %d dynamic children that succeeded under the old version run again (CHANGED code)", rp.RerunChildren)
	}
	return s
}

// byStateString is " (2 failed, 3 cancelled)" for a plan's states, in a
// fixed order: a Go map printed as is read "map[failed:2]".
func byStateString(by map[string]int) string {
	keys := slices.Sorted(maps.Keys(by))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if by[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[k], k))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
