package engine

import (
	"context"
	"fmt"

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
	// Origin is what launched the runs: editor, cli, api, backfill,
	// trigger, trigger:<id>, freshness or manual (no trigger nor freshness
	// refresh); "" for all. See originWhere.
	Origin string
	State  State // the run's latest state; "" for all
	Limit  int   // default 100
	Offset int   // runs to skip, newest first, for paging
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
	// Actor is who launched it ("launched by ana"), or the actor of its
	// backfill; "" for a trigger's run or a run older than the record.
	Actor string `json:"actor,omitempty"`
	// Launched is the origin filter this run answers to: editor, cli, api,
	// backfill, trigger or freshness ("" for runs older than the record).
	Launched string `json:"launched,omitempty"`
	// Attempt is which attempt at its backfill partition the run is (from
	// 1): each retry of a partition is a run of its own (backfill_attempt.go).
	Attempt int `json:"attempt,omitempty"`
	// TraceID is the run's OpenTelemetry trace, when tracing was on.
	TraceID string `json:"trace_id,omitempty"`
}

// runSummaryCols are the columns scanRunSummary reads, grouped by run_id.
const runSummaryCols = `run_id, any_value(backfill_id), any_value(pipeline), any_value(partition_key),
		arg_max(state, seq), arg_max(error, seq), min(event_at), max(event_at), arg_max(duration_ms, seq),
		coalesce(arg_max(engine, seq) FILTER (WHERE engine <> '' AND block_id = ''), ''), coalesce(max(origin), '')`

type scanner interface{ Scan(dest ...any) error }

func scanRunSummary(sc scanner) (RunSummary, error) {
	var r RunSummary
	var origin string
	if err := sc.Scan(&r.RunID, &r.BackfillID, &r.Pipeline, &r.Partition, &r.State, &r.Error, &r.StartedAt, &r.UpdatedAt, &r.DurationMS, &r.Engine, &origin); err != nil {
		return r, err
	}
	r.Origin = decodeOrigin(origin)
	if r.Origin != nil {
		r.Actor, r.TraceID = r.Origin.Actor, r.Origin.TraceID
		if r.Origin.Kind == "" {
			r.Origin = nil // only named the actor of a person's backfill
		}
	}
	r.Launched = launchedBy(r.Origin, r.BackfillID)
	if r.BackfillID != "" {
		_, r.Attempt = slotOf(r.RunID)
	}
	return r, nil
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
	for _, c := range []struct{ col, v string }{{"pipeline", f.Pipeline}, {"backfill_id", f.BackfillID}, {"partition_key", f.Partition}} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
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
	having := ""
	if f.State != "" {
		having = " HAVING arg_max(state, seq) = ?"
		args = append(args, string(f.State))
	}
	args = append(args, f.Limit, max(0, f.Offset))
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT `+runSummaryCols+`
		FROM _strata.run_events WHERE `+strings.Join(where, " AND ")+`
		GROUP BY run_id`+having+` ORDER BY min(event_at) DESC, run_id LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunSummary
	for rows.Next() {
		r, err := scanRunSummary(rows)
		if err != nil {
			return nil, err
		}
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
	// Versions are the product versions the run wrote (current now or not):
	// the run page links each to its product, as a version links its run.
	Versions []RunVersion `json:"versions"`
}

// RunVersion is one product version a run wrote.
type RunVersion struct {
	Product   string `json:"product"`
	Partition string `json:"partition"`
	Version   int    `json:"version"`
	Rows      int64  `json:"rows"`
	Current   bool   `json:"current"`
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
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if d.Versions, err = e.runVersions(ctx, runID); err != nil {
		return nil, err
	}
	return d, nil
}

// runVersions lists the versions runID wrote, by product and partition.
func (e *Engine) runVersions(ctx context.Context, runID string) ([]RunVersion, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT product, partition, version, row_count, is_current FROM _strata.versions
		WHERE run_id = ? ORDER BY product, partition_start, version`, runID)
	if err != nil {
		return nil, fmt.Errorf("versions of run %s: %w", runID, err)
	}
	defer rows.Close()
	out := []RunVersion{}
	for rows.Next() {
		var v RunVersion
		if err := rows.Scan(&v.Product, &v.Partition, &v.Version, &v.Rows, &v.Current); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (e *Engine) runByID(ctx context.Context, runID string) (RunSummary, error) {
	if err := e.store.Write(ctx); err != nil {
		return RunSummary{}, err
	}
	r, err := scanRunSummary(e.wh.DB().QueryRowContext(ctx, `SELECT `+runSummaryCols+`
		FROM _strata.run_events WHERE run_id = ? AND block_id = '' GROUP BY run_id`, runID))
	if err != nil {
		return r, errNotFoundf("run %q not found", runID)
	}
	return r, nil
}

// childOutputs reads the outputs of the dynamic children of a run that
// succeeded in earlier attempts (of the run, or of the partition's earlier
// runs: backfill_attempt.go) under pipeline version snapshot. A child
// that succeeded under another version (a retry with the current code), or
// before versions were recorded on children, runs again: its output is
// what other code computed.
func (e *Engine) childOutputs(ctx context.Context, runID, snapshot string) (map[childKey]*sdk.Table, error) {
	if err := e.store.Write(ctx); err != nil {
		return nil, err
	}
	slot, _ := slotOf(runID)
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT block_id, child_key, arg_max(output, seq) FROM _strata.run_events
		WHERE (run_id = ? OR starts_with(run_id, ?)) AND child_key <> '' AND state = 'succeeded' AND output IS NOT NULL AND snapshot = ? GROUP BY block_id, child_key`,
		slot, slot+attemptSep, snapshot)
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

// runStates are the states a run can be in, for the runs list's filter.
var runStates = []State{StateRunning, StateSucceeded, StateFailed, StateCancelled, StateConflict, StateSkipped, StateQueued}

// KnownState reports whether s is a state a run can be in.
func KnownState(s State) bool {
	for _, k := range runStates {
		if k == s {
			return true
		}
	}
	return false
}

// StateNames lists the run states, for an error message.
func StateNames() string {
	var ns []string
	for _, s := range runStates {
		ns = append(ns, string(s))
	}
	return strings.Join(ns, ", ")
}
