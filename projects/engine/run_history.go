package engine

import (
	"context"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"strings"
	"time"
)

// RunFilter selects runs from the history.
type RunFilter struct {
	Pipeline   string
	BackfillID string
	Partition  string
	Origin     string // manual, trigger or trigger:<id>; "" for all
	Limit      int    // default 100
}

// RunSummary is one run in the history.
type RunSummary struct {
	RunID      string    `json:"run_id"`
	BackfillID string    `json:"backfill_id,omitempty"`
	Pipeline   string    `json:"pipeline"`
	Partition  string    `json:"partition"`
	State      State     `json:"state"`
	Error      string    `json:"error,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	UpdatedAt  time.Time `json:"updated_at"`
	DurationMS float64   `json:"duration_ms,omitempty"`
	Engine     string    `json:"engine,omitempty"` // interp or compiled
	Origin     *Origin   `json:"origin,omitempty"` // nil when a person launched it
}

// Runs lists runs, newest first.
func (e *Engine) Runs(ctx context.Context, f RunFilter) ([]RunSummary, error) {
	if err := e.store.Write(ctx); err != nil {
		return nil, err
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	where := []string{"block_id = ''"}
	var args []any
	for col, v := range map[string]string{"pipeline": f.Pipeline, "backfill_id": f.BackfillID, "partition_key": f.Partition} {
		if v != "" {
			where = append(where, col+" = ?")
			args = append(args, v)
		}
	}
	ow, oargs, err := originWhere(f.Origin)
	if err != nil {
		return nil, err
	}
	if ow != "" {
		where = append(where, ow)
		args = append(args, oargs...)
	}
	args = append(args, f.Limit)
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT run_id, any_value(backfill_id), any_value(pipeline), any_value(partition_key),
		arg_max(state, seq), arg_max(error, seq), min(event_at), max(event_at), arg_max(duration_ms, seq),
		coalesce(arg_max(engine, seq) FILTER (WHERE engine <> '' AND block_id = ''), ''), coalesce(max(origin), '')
		FROM _strata.run_events WHERE `+strings.Join(where, " AND ")+`
		GROUP BY run_id ORDER BY min(event_at) DESC LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunSummary
	for rows.Next() {
		var r RunSummary
		var origin string
		if err := rows.Scan(&r.RunID, &r.BackfillID, &r.Pipeline, &r.Partition, &r.State, &r.Error, &r.StartedAt, &r.UpdatedAt, &r.DurationMS, &r.Engine, &origin); err != nil {
			return nil, err
		}
		r.Origin = decodeOrigin(origin)
		out = append(out, r)
	}
	return out, rows.Err()
}

// BlockRun is the latest state of one block (or child) of a run, with its
// timing and logs: what the run timeline and the partition drawer show.
type BlockRun struct {
	Block      string    `json:"block"`
	Child      string    `json:"child,omitempty"`
	Partition  string    `json:"partition"`
	State      State     `json:"state"`
	Attempt    int       `json:"attempt"`
	Rows       int64     `json:"rows"`
	StartedAt  time.Time `json:"started_at"`
	EndedAt    time.Time `json:"ended_at"`
	DurationMS float64   `json:"duration_ms"`
	Error      string    `json:"error,omitempty"`
	ErrorLine  int       `json:"error_line,omitempty"`
	Log        string    `json:"log,omitempty"`
	Worker     string    `json:"worker,omitempty"` // the worker machine that ran it last
	Engine     string    `json:"engine,omitempty"` // how that worker ran it (interp or compiled), when it said
}

// RunDetail is a run with its block runs.
type RunDetail struct {
	RunSummary
	Blocks []BlockRun `json:"blocks"`
}

// RunDetail reads one run.
func (e *Engine) RunDetail(ctx context.Context, runID string) (*RunDetail, error) {
	runs, err := e.runByID(ctx, runID)
	if err != nil {
		return nil, err
	}
	d := &RunDetail{RunSummary: runs}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT block_id, child_key, any_value(partition_key), arg_max(state, seq), max(attempt),
		arg_max(rows, seq), min(event_at), max(event_at), arg_max(duration_ms, seq), arg_max(error, seq), arg_max(error_line, seq),
		string_agg(log, '' ORDER BY seq), coalesce(arg_max(worker, seq) FILTER (WHERE worker <> ''), ''),
		coalesce(arg_max(engine, seq) FILTER (WHERE engine <> ''), '')
		FROM _strata.run_events WHERE run_id = ? AND block_id <> '' GROUP BY block_id, child_key ORDER BY min(seq)`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var b BlockRun
		if err := rows.Scan(&b.Block, &b.Child, &b.Partition, &b.State, &b.Attempt, &b.Rows, &b.StartedAt, &b.EndedAt, &b.DurationMS, &b.Error, &b.ErrorLine, &b.Log, &b.Worker, &b.Engine); err != nil {
			return nil, err
		}
		d.Blocks = append(d.Blocks, b)
	}
	return d, rows.Err()
}

func (e *Engine) runByID(ctx context.Context, runID string) (RunSummary, error) {
	if err := e.store.Write(ctx); err != nil {
		return RunSummary{}, err
	}
	var r RunSummary
	var origin string
	err := e.wh.DB().QueryRowContext(ctx, `SELECT run_id, any_value(backfill_id), any_value(pipeline), any_value(partition_key),
		arg_max(state, seq), arg_max(error, seq), min(event_at), max(event_at), arg_max(duration_ms, seq),
		coalesce(arg_max(engine, seq) FILTER (WHERE engine <> '' AND block_id = ''), ''), coalesce(max(origin), '')
		FROM _strata.run_events WHERE run_id = ? AND block_id = '' GROUP BY run_id`, runID).
		Scan(&r.RunID, &r.BackfillID, &r.Pipeline, &r.Partition, &r.State, &r.Error, &r.StartedAt, &r.UpdatedAt, &r.DurationMS, &r.Engine, &origin)
	if err != nil {
		return r, errNotFoundf("run %q not found", runID)
	}
	r.Origin = decodeOrigin(origin)
	return r, nil
}

// childOutputs reads the outputs of the dynamic children of a run that
// succeeded in earlier attempts under pipeline version snapshot. A child
// that succeeded under another version (a retry with the current code), or
// before versions were recorded on children, runs again: its output is
// what other code computed.
func (e *Engine) childOutputs(ctx context.Context, runID, snapshot string) (map[childKey]*sdk.Table, error) {
	if err := e.store.Write(ctx); err != nil {
		return nil, err
	}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT block_id, child_key, arg_max(output, seq) FROM _strata.run_events
		WHERE run_id = ? AND child_key <> '' AND state = 'succeeded' AND output IS NOT NULL AND snapshot = ? GROUP BY block_id, child_key`, runID, snapshot)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[childKey]*sdk.Table{}
	for rows.Next() {
		var k childKey
		var b []byte
		if err := rows.Scan(&k.block, &k.child, &b); err != nil {
			return nil, err
		}
		t, _, err := protocol.DecodeTable(b)
		if err != nil {
			continue // unreadable: the child simply runs again
		}
		out[k] = t
	}
	return out, rows.Err()
}
