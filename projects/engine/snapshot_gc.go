package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/snapshot"
)

// Snapshots (.strata/snapshots/<hash>/) are collected when nothing needs
// them any more. A snapshot is kept while any of these names it:
//
//   - a version still in the catalog (current, kept by retention for a
//     rollback, staged for review or held back by a conflict): its lineage
//     says which code computed it, and the code stays readable;
//   - a backfill that can still run: running, paused, failed or cancelled
//     (resume and retry run its snapshot), in review or rolled back;
//   - a run or backfill in flight in this process;
//   - nothing at all, if it was taken or used within SnapshotGrace (a run
//     that has just pinned it and not yet recorded anything).
//
// A succeeded backfill, or one that needs attention (resolving conflicts
// runs nothing), keeps its snapshot only through its versions. Collection
// runs when the engine opens a project for writing and after each backfill
// ends; see snapshot.GC for how a removal survives a crash.

// SnapshotGrace is how long a snapshot is kept after it was last taken or
// used, whatever else needs it.
const SnapshotGrace = time.Hour

// hold marks snapshot hash in use by this process until release is called.
func (e *Engine) hold(hash string) (release func()) {
	e.mu.Lock()
	e.inUse[hash]++
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		if e.inUse[hash]--; e.inUse[hash] <= 0 {
			delete(e.inUse, hash)
		}
		e.mu.Unlock()
	}
}

// CollectSnapshots removes the snapshots nothing needs (the rule above)
// and returns their hashes.
func (e *Engine) CollectSnapshots(ctx context.Context) ([]string, error) {
	if e.readOnly {
		return nil, nil
	}
	e.snapMu.Lock()
	defer e.snapMu.Unlock()
	keep, err := e.neededSnapshots(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	for h := range e.inUse {
		keep[h] = true
	}
	e.mu.Unlock()
	removed, err := snapshot.GC(e.project().Dir, func(h string) bool { return keep[h] }, e.now().Add(-SnapshotGrace))
	if len(removed) > 0 {
		e.mu.Lock()
		for k := range e.pins {
			for _, h := range removed {
				if strings.HasPrefix(k, h+"/") {
					delete(e.pins, k)
				}
			}
		}
		e.mu.Unlock()
	}
	return removed, err
}

// neededSnapshots is what the warehouse still names: versions' lineage and
// the backfills that can still run or be reviewed.
func (e *Engine) neededSnapshots(ctx context.Context) (map[string]bool, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT DISTINCT snapshot FROM _strata.versions WHERE coalesce(snapshot, '') <> ''
		UNION SELECT b.snapshot FROM _strata.backfills b
		LEFT JOIN (SELECT backfill_id, arg_max(state, event_at) AS state FROM _strata.backfill_events GROUP BY backfill_id) ev USING (backfill_id)
		WHERE coalesce(b.snapshot, '') <> '' AND coalesce(ev.state, 'running') NOT IN ('succeeded', 'needs_attention')`)
	if err != nil {
		return nil, fmt.Errorf("read which snapshots are needed: %w", err)
	}
	defer rows.Close()
	keep := map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		keep[h] = true
	}
	return keep, rows.Err()
}

// collectSnapshots is CollectSnapshots at a safe moment (the engine opened,
// a backfill ended): a failure is told, never fatal, and the next
// collection tries again.
func (e *Engine) collectSnapshots(ctx context.Context) {
	if _, err := e.CollectSnapshots(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "strata: collecting unused snapshots: %v\n", err)
	}
}
