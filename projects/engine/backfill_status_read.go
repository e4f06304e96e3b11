package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// statusRead is what one status read takes from the catalog: the
// backfill's row and latest event, the pipeline version of each partition
// it published (lineage), and, when it does not run here, its partitions'
// latest states from the run log. The UI polls a status every 2 s, so it
// is one warehouse.FollowAll: on a lake the catalog's snapshot is read
// once, and each table only for the commits since the last read.
type statusRead struct {
	createdAt, updatedAt    time.Time
	version, state, message string
	lineage                 map[string]string
	counts                  map[State]int // nil unless asked for
	engine                  string
}

// readStatus reads backfill id's statusRead, its counts too when counts.
func (e *Engine) readStatus(ctx context.Context, id string, counts bool) (*statusRead, error) {
	qs := []warehouse.Followed{
		{Table: "backfills", Key: []string{"backfill_id"}, Columns: []string{"created_at", "snapshot"}, Where: "backfill_id = ?", Args: []any{id}},
		{Table: "backfill_events", Key: []string{"event_at", "state", "message"}, Where: "backfill_id = ?", Args: []any{id}},
		warehouse.VersionsOfRunsFollowed(id + ":"),
	}
	if counts {
		if err := e.store.Write(ctx); err != nil { // read our own writes
			return nil, err
		}
		qs = append(qs, runLogFollowed(id))
	}
	res, err := e.wh.FollowAll(ctx, qs...)
	if err != nil {
		return nil, fmt.Errorf("backfill %s: %w", id, err)
	}
	if len(res[0]) == 0 || len(res[1]) == 0 {
		return nil, fmt.Errorf("backfill %s: no record of it or of its events", id)
	}
	r := &statusRead{}
	r.createdAt, _ = res[0][0][1].(time.Time)
	r.version, _ = res[0][0][2].(string)
	for i, ev := range res[1] {
		at, _ := ev[0].(time.Time)
		st, _ := ev[1].(string)
		// The latest event; of two at once, the greater state, so that
		// the answer does not depend on the order rows come in.
		if i == 0 || at.After(r.updatedAt) || (at.Equal(r.updatedAt) && st > r.state) {
			r.updatedAt, r.state = at, st
			r.message, _ = ev[2].(string)
		}
	}
	r.lineage = lineageOf(warehouse.RunVersionsOf(res[2]))
	if counts {
		r.counts, r.engine = countsOf(res[3])
	}
	return r, nil
}

// runLogFollowed is the run log's partition-level events of backfill id,
// countsOf's rows.
func runLogFollowed(id string) warehouse.Followed {
	return warehouse.Followed{
		Table:   "run_events",
		Key:     []string{"seq", "run_id", "state", "event_at"},
		Columns: []string{"engine"},
		Where:   "backfill_id = ? AND block_id = ''",
		Args:    []any{id},
	}
}

// countsOf counts partitions by their latest state (the event of the
// highest seq of their slot) and says the engine of the latest event that
// named one.
func countsOf(rows [][]any) (map[State]int, string) {
	type latest struct {
		seq   int64
		state string
	}
	slots := map[string]latest{}
	engine, last := "", int64(-1)
	for _, r := range rows {
		seq, _ := r[0].(int64)
		run, _ := r[1].(string)
		st, _ := r[2].(string)
		eng, _ := r[4].(string)
		slot, _ := slotOf(run)
		if l, ok := slots[slot]; !ok || seq > l.seq {
			slots[slot] = latest{seq, st}
		}
		if eng != "" && seq > last {
			engine, last = eng, seq
		}
	}
	out := map[State]int{}
	for _, l := range slots {
		out[State(l.state)]++
	}
	return out, engine
}

// lineageOf is the pipeline version of each slot's latest version.
func lineageOf(vs []warehouse.RunVersion) map[string]string {
	type latest struct {
		snapshot string
		at       time.Time
	}
	by := map[string]latest{}
	for _, v := range vs {
		slot, _ := slotOf(v.RunID)
		l, ok := by[slot]
		if !ok || v.CreatedAt.After(l.at) || (v.CreatedAt.Equal(l.at) && v.Snapshot > l.snapshot) {
			by[slot] = latest{v.Snapshot, v.CreatedAt}
		}
	}
	out := make(map[string]string, len(by))
	for k, l := range by {
		out[k] = l.snapshot
	}
	return out
}
