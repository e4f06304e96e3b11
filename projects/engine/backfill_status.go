package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/partitions"
)

// BackfillStatus is a backfill as the CLI, API and UI show it.
type BackfillStatus struct {
	ID         string       `json:"id"`
	Pipeline   string       `json:"pipeline"`
	Spec       BackfillSpec `json:"spec"`
	State      State        `json:"state"`
	Message    string       `json:"message,omitempty"`
	Progress   Progress     `json:"progress"`
	CreatedAt  time.Time    `json:"created_at"`
	UpdatedAt  time.Time    `json:"updated_at"`
	InProcess  bool         `json:"in_process"` // running in this process
	Total      int          `json:"total"`
	Partitions int          `json:"partitions"` // of the pipeline's interval
	// Snapshot is the pipeline version the backfill runs; CurrentSnapshot
	// the one the files on disk make now. They differ when the files have
	// changed since (the backfill keeps running its own version).
	Snapshot        string `json:"snapshot"`
	CurrentSnapshot string `json:"current_snapshot,omitempty"`
	FilesChanged    bool   `json:"files_changed"`
	// RetryHint, when the files changed since Snapshot, says that a plain
	// retry reruns Snapshot and how to retry with the current code.
	RetryHint string `json:"retry_hint,omitempty"`
	// Ran is each pipeline version that computed published partitions of
	// the backfill (published, staged or kept aside), from the catalog: more than one after a retry with the
	// current code (RanString says it for people).
	Ran     []VersionShare `json:"ran,omitempty"`
	Problem string         `json:"problem,omitempty"` // why its pipeline version cannot be loaded
	// Conflicts lists (at most maxConflicts of) the product partitions not
	// made current because newer work was; resolve them with
	// Resolve (promote anyway or keep newer).
	Conflicts []BackfillConflict `json:"conflicts,omitempty"`
	// Interrupted: the log says running but no process runs it (read
	// with no process holding the project: a shutdown, kill or crash stopped it
	// before it ended); Message says how to continue it.
	Interrupted bool `json:"interrupted,omitempty"`
}

// maxConflicts bounds the conflicts a status lists; Conflicts has them all.
const maxConflicts = 50

// Backfill reads one backfill's status.
func (e *Engine) Backfill(ctx context.Context, id string) (*BackfillStatus, error) {
	spec, err := e.backfillSpec(ctx, id)
	if err != nil {
		return nil, err
	}
	st := &BackfillStatus{ID: id, Pipeline: spec.Pipeline, Spec: spec}
	// The backfill's row and latest event in one read (statusRead): the
	// UI polls.
	rd, err := e.readStatus(ctx, id)
	if err != nil {
		return nil, err
	}
	st.CreatedAt, st.UpdatedAt, st.State, st.Message = rd.createdAt, rd.updatedAt, State(rd.state), rd.message
	t, err := e.backfillTargetAt(ctx, id, spec, rd.version)
	if err != nil {
		// Still listed (with what went wrong, its version and what its
		// partitions did), so that it can be retried with the current code
		// or cancelled.
		st.Problem = err.Error()
		st.Snapshot = rd.version
	} else {
		st.Partitions = t.total
		st.Total = t.total + t.rollups
		st.Snapshot = t.pin.hash
	}
	if cur, err := e.CurrentVersion(spec.Pipeline); err == nil {
		st.CurrentSnapshot, st.FilesChanged = cur, cur != st.Snapshot
		if st.FilesChanged && st.Snapshot != "" {
			st.RetryHint = CodeChangedHint(st.Snapshot, cur)
		}
	} else {
		// The pipeline was renamed, deleted or broken since: its files
		// changed too (the backfill still runs its own version).
		st.FilesChanged = true
	}
	if st.Ran, err = cachedAggregate(e, ctx, &e.statusCache.shares, id, e.statusMark(), func(ctx context.Context) ([]VersionShare, error) { return e.backfillShares(ctx, id) }); err != nil {
		return nil, err
	}
	if b := e.running(id); b != nil {
		st.InProcess = true
		st.Progress = *b.progress()
		st.Progress.State = st.State
		st.Progress.Total = st.Total
		return st, nil
	}
	if st.State == StateRunning && e.readOnly {
		// Nothing runs it: answering "running" would have a reader wait
		// for a backfill that stopped with a kill -9 or a crash.
		dir := e.project().Dir
		st.Interrupted = true
		st.Message = fmt.Sprintf("interrupted: no strata process is running it (its process stopped before it ended: a shutdown, a kill or a crash); "+
			"what succeeded is kept: `strata backfill resume %s %s` continues it (`strata start` resumes it by itself)", dir, id)
	}
	counts, err := e.backfillCounts(ctx, id)
	if err != nil {
		return nil, err
	}
	st.Progress = Progress{BackfillID: id, State: st.State, Total: st.Total,
		Succeeded: counts[StateSucceeded], Failed: counts[StateFailed], Skipped: counts[StateSkipped],
		Cancelled: counts[StateCancelled], Running: counts[StateRunning], Conflicts: counts[StateConflict]}
	if st.State == StateCancelled {
		// The partitions a cancel kept from starting were cancelled too
		// (a retry runs them), not nothing.
		p := &st.Progress
		p.Cancelled += max(0, st.Total-p.Succeeded-p.Failed-p.Skipped-p.Cancelled-p.Running-p.Conflicts)
	}
	if st.Progress.Conflicts > 0 {
		cs, err := e.Conflicts(ctx, id)
		if err != nil {
			return nil, err
		}
		st.Conflicts = cs[:min(len(cs), maxConflicts)]
	}
	st.Progress.Done = st.Progress.Succeeded + st.Progress.Skipped
	st.Progress.Elapsed = st.UpdatedAt.Sub(st.CreatedAt)
	// The engine its runs used: a scan of every run event of the backfill,
	// cached as the counts are (the mark before the write that makes the
	// read see every event up to it).
	mark := e.statusMark()
	if e.store.Write(ctx) == nil {
		st.Progress.Engine, _ = cachedAggregate(e, ctx, &e.statusCache.engines, id, mark, func(ctx context.Context) (string, error) {
			var engine string
			err := e.wh.DB().QueryRowContext(ctx, `SELECT coalesce(arg_max(engine, seq) FILTER (WHERE engine <> ''), '') FROM _strata.run_events
				WHERE backfill_id = ? AND block_id = ''`, id).Scan(&engine)
			return engine, err
		})
	}
	return st, nil
}

// backfillTarget is a backfill's target as its pipeline version has it:
// the blocks and partitions it planned, whatever the files say now.
func (e *Engine) backfillTarget(ctx context.Context, id string, spec BackfillSpec) (*target, error) {
	return e.backfillTargetAt(ctx, id, spec, "")
}

// backfillTargetAt is backfillTarget for a backfill whose pipeline version
// was read already (version; "" reads it).
func (e *Engine) backfillTargetAt(ctx context.Context, id string, spec BackfillSpec, version string) (*target, error) {
	if b := e.running(id); b != nil {
		return b.t, nil
	}
	var pin *pinned
	var err error
	if version != "" {
		pin, err = e.pinnedVersion(version, spec.Pipeline)
	} else {
		pin, err = e.backfillPin(ctx, id, spec.Pipeline)
	}
	if err != nil {
		return nil, fmt.Errorf("backfill %s: %w", id, err)
	}
	t, err := e.target(ctx, spec, pin.pl)
	if err != nil {
		return nil, fmt.Errorf("backfill %s: %w", id, err)
	}
	t.pin = pin
	return t, nil
}

// rollupCount is the number of coarse partitions a backfill's range
// touches: the coarse periods of its time range, times its value cells.
func rollupCount(t *target) int {
	if t.total == 0 || t.pspec.Interval == partitions.None {
		return 0
	}
	ts := t.pspec.TimeOnly()
	first, err1 := ts.Parse(t.from)
	last, err2 := ts.Parse(t.to)
	times, err3 := ts.Count(t.from, t.to)
	if err1 != nil || err2 != nil || err3 != nil || times == 0 {
		return 0
	}
	cells := t.total / times
	n := 0
	_, coarse := t.split()
	for _, blocks := range coarse {
		cs, err := SpecOf(blocks[0].Partitions)
		if err != nil {
			continue
		}
		cs = cs.TimeOnly()
		a, z := ts.Containing(first, cs), ts.Containing(last, cs)
		if len(a) == 0 || len(z) == 0 {
			continue
		}
		if c, err := cs.Count(a[0].Key, z[len(z)-1].Key); err == nil {
			n += c * cells
		}
	}
	return n
}

// Backfills lists every backfill, newest first.
func (e *Engine) Backfills(ctx context.Context) ([]*BackfillStatus, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT backfill_id FROM _strata.backfills ORDER BY created_at DESC`)
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	out := make([]*BackfillStatus, 0, len(ids))
	for _, id := range ids {
		st, err := e.Backfill(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// backfillCounts counts partitions by their latest state, in the
// database: a status of a backfill of millions of cells holds a handful of
// counts, not a map of every cell.
func (e *Engine) backfillCounts(ctx context.Context, id string) (map[State]int, error) {
	mark := e.statusMark()
	if err := e.store.Write(ctx); err != nil { // read our own writes
		return nil, err
	}
	counts, err := cachedAggregate(e, ctx, &e.statusCache.counts, id, mark, func(ctx context.Context) (map[State]int, error) { return e.countSlots(ctx, id) })
	// A copy: callers add to it.
	out := make(map[State]int, len(counts))
	for s, n := range counts {
		out[s] = n
	}
	return out, err
}

// countSlots counts the backfill's slots by their latest state.
func (e *Engine) countSlots(ctx context.Context, id string) (map[State]int, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT st, count(*) FROM (
		SELECT arg_max(state, seq) AS st FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY `+slotSQL+`) GROUP BY st`, id)
	if err != nil {
		return nil, fmt.Errorf("backfill %s: counts: %w", id, err)
	}
	defer rows.Close()
	out := map[State]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		out[State(s)] = n
	}
	return out, rows.Err()
}

// partitionStates is the latest run-level state of each partition of a
// backfill, by its slot id (runIDFor; backfill_attempt.go).
func (e *Engine) partitionStates(ctx context.Context, id string) (map[string]State, error) {
	slots, err := e.partitionSlots(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make(map[string]State, len(slots))
	for k, s := range slots {
		out[k] = s.State
	}
	return out, nil
}

// PartitionStatus is one partition of a backfill, for the grid.
type PartitionStatus struct {
	Key      string  `json:"key"`
	Interval string  `json:"interval"`
	State    State   `json:"state"` // queued when not reached yet
	RunID    string  `json:"run_id,omitempty"`
	Error    string  `json:"error,omitempty"`
	Duration float64 `json:"duration_ms,omitempty"`
	// Snapshot is the pipeline version that computed the partition's
	// published versions (the catalog's lineage); "" before it published.
	Snapshot string `json:"snapshot,omitempty"`
}
