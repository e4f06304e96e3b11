package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/tracing"
	"github.com/stratahq/strata/projects/warehouse"
)

// Origin says what launched a run or backfill when it was not a person: a
// trigger's tick, an upstream change, or an API call to a trigger. It is
// recorded on the backfill's spec and on the first event of each of its
// runs, so the runs list can say (and filter by) why a run happened.
type Origin struct {
	Kind        string    `json:"kind"`               // OriginTrigger
	Trigger     string    `json:"trigger"`            // the trigger's id in the pipeline file
	TriggerKind string    `json:"trigger_kind"`       // schedule, event or api
	Tick        time.Time `json:"tick,omitzero"`      // schedule: the tick (UTC)
	Upstream    *Upstream `json:"upstream,omitempty"` // event: the change that fired it
	Request     string    `json:"request,omitempty"`  // api: the partition or range asked for
	Note        string    `json:"note,omitempty"`     // catch-up position and the like
	// Actor is the person who launched it (a user's name), as the server or
	// CLI handed it; the engine records it and never checks a role.
	Actor string `json:"actor,omitempty"`
	// TraceID is the OpenTelemetry trace the run's spans are in, when
	// tracing is on (projects/tracing): from a failed partition to its trace.
	TraceID string `json:"trace_id,omitempty"`
}

// withTrace is o with the trace id of ctx's span, if there is one.
func withTrace(o *Origin, ctx context.Context) *Origin {
	id := tracing.TraceID(ctx)
	if id == "" {
		return o
	}
	out := Origin{}
	if o != nil {
		out = *o
	}
	out.TraceID = id
	return &out
}

// withActor is the origin recorded on a run's first event: o with the
// actor's name. A person's backfill has no Origin of its own; its runs
// record one of kind "" that only names the actor.
func withActor(o *Origin, actor string) *Origin {
	if actor == "" {
		return o
	}
	out := Origin{}
	if o != nil {
		out = *o
	}
	out.Actor = actor
	return &out
}

// Origin kinds. A trigger's (and freshness, in product_freshness.go) carry
// details; the others only say which door a person came in by.
const (
	OriginTrigger = "trigger"
	OriginEditor  = "editor" // the Run pipeline button of the web UI
	OriginCLI     = "cli"    // strata run
	OriginAPI     = "api"    // POST /pipelines/:id/runs from anything else
)

// OriginBackfill is the origin filter (and RunSummary.Launched) of a run
// that a person's backfill launched; it is not recorded as an Origin, the
// run's backfill id says it.
const OriginBackfill = "backfill"

// PersonOrigin is the Origin recorded for a run a person started through
// kind (OriginEditor, OriginCLI or OriginAPI); an unknown kind is an error.
func PersonOrigin(kind string) (*Origin, error) {
	switch kind {
	case OriginEditor, OriginCLI, OriginAPI:
		return &Origin{Kind: kind}, nil
	}
	return nil, fmt.Errorf("origin %q: want editor, cli or api", kind)
}

// launchedBy is RunSummary.Launched.
func launchedBy(o *Origin, backfillID string) string {
	switch {
	case o != nil && (o.Kind == OriginTrigger || o.Kind == OriginFreshness):
		return o.Kind
	case backfillID != "":
		return OriginBackfill
	case o != nil:
		return o.Kind
	}
	return ""
}

// Upstream summarizes the upstream versions an event trigger reacted to:
// one record for a whole upstream backfill, not one per partition.
type Upstream struct {
	Product    string `json:"product"`
	From       string `json:"from"` // first and last upstream partition that changed
	To         string `json:"to"`
	Partitions int    `json:"partitions"`
	By         string `json:"by,omitempty"` // the upstream run or backfill that published them
}

// String is the origin in one line, for the CLI.
func (o *Origin) String() string {
	if o == nil {
		return "manual"
	}
	if o.TraceID != "" {
		c := *o
		c.TraceID = ""
		if c == (Origin{}) {
			return "manual"
		}
		return c.String()
	}
	if o.Actor != "" {
		by := *o
		by.Actor = ""
		if by.Kind == "" {
			return "manual by " + o.Actor
		}
		return by.String() + " by " + o.Actor
	}
	switch o.Kind {
	case OriginFreshness:
		return "freshness: " + o.Note
	case OriginEditor, OriginCLI, OriginAPI:
		return o.Kind
	}
	s := o.Kind + " " + o.Trigger
	switch {
	case !o.Tick.IsZero():
		s += " @ " + o.Tick.UTC().Format(time.RFC3339)
	case o.Upstream != nil:
		s += fmt.Sprintf(" <- %s %s..%s (%d) by %s", o.Upstream.Product, o.Upstream.From, o.Upstream.To, o.Upstream.Partitions, o.Upstream.By)
	case o.Request != "":
		s += " api " + o.Request
	}
	return s
}

func (o *Origin) encode() string {
	if o == nil {
		return ""
	}
	b, _ := json.Marshal(o)
	return string(b)
}

func decodeOrigin(s string) *Origin {
	if s == "" {
		return nil
	}
	var o Origin
	if json.Unmarshal([]byte(s), &o) != nil {
		return nil
	}
	return &o
}

// originWhere is the run filter for RunFilter.Origin: "manual" (nothing
// launched it but a person: no trigger, no freshness refresh), "trigger"
// (any trigger), "trigger:<id>", "freshness", "backfill" (a person's
// backfill), or the door a person's single run came in by: "editor",
// "cli", "api".
func originWhere(f string) (string, []any, error) {
	const launched = `SELECT run_id FROM _strata.run_events WHERE origin <> ''`
	const machine = launched + ` AND json_extract_string(origin, '$.kind') IN ('` + OriginTrigger + `', '` + OriginFreshness + `')`
	switch {
	case f == "":
		return "", nil, nil
	case f == "manual":
		return "run_id NOT IN (" + machine + ")", nil, nil
	case f == OriginBackfill:
		return "backfill_id <> '' AND run_id NOT IN (" + machine + ")", nil, nil
	case f == OriginEditor || f == OriginCLI || f == OriginAPI:
		return "backfill_id = '' AND run_id IN (" + launched + " AND json_extract_string(origin, '$.kind') = ?)", []any{f}, nil
	case f == OriginTrigger || f == OriginFreshness:
		return "run_id IN (" + launched + " AND json_extract_string(origin, '$.kind') = ?)", []any{f}, nil
	case len(f) > len(OriginTrigger)+1 && f[:len(OriginTrigger)+1] == OriginTrigger+":":
		return "run_id IN (" + launched + " AND json_extract_string(origin, '$.trigger') = ?)", []any{f[len(OriginTrigger)+1:]}, nil
	}
	return "", nil, fmt.Errorf("origin %q: want editor, cli, api, backfill, trigger, trigger:<id>, freshness or manual", f)
}

// LaunchAs is Launch under a deterministic id: when a backfill with that id
// is already recorded, nothing new starts and its status is returned with
// created false (resumed first if it was interrupted and is not running).
// Triggers launch through it, so a replayed tick cannot launch twice.
func (e *Engine) LaunchAs(ctx context.Context, id string, spec BackfillSpec) (*BackfillStatus, bool, error) {
	if st, err := e.Backfill(ctx, id); err == nil {
		if !st.State.Final() && st.State != StatePaused && e.running(id) == nil {
			st, err = e.restart(ctx, id, false, false, nil)
			return st, false, err
		}
		return st, false, nil
	}
	st, err := e.launch(ctx, id, spec, false)
	return st, err == nil, err
}

// Publication is the notice of versions becoming current: after a run
// publishes, or an atomic backfill promotes. Event triggers follow these.
type Publication struct {
	Pipeline   string                 `json:"pipeline"`
	RunID      string                 `json:"run_id,omitempty"`
	BackfillID string                 `json:"backfill_id,omitempty"`
	Versions   []warehouse.VersionRef `json:"versions"`
}

func (e *Engine) published(pl, runID, backfillID string, refs []warehouse.VersionRef) {
	if len(refs) == 0 {
		return
	}
	e.hub.Publish(Notice{Kind: NoticePublished, Published: &Publication{Pipeline: pl, RunID: runID, BackfillID: backfillID, Versions: refs}})
}

// Notice kinds beyond state, stdout, log and progress.
const (
	NoticePublished = "published" // versions became current
	NoticeProject   = "project"   // the project was reloaded (SetProject)
)

// NotFoundf is a NotFoundError for packages that look things up on the
// engine's behalf (a trigger of a pipeline).
func NotFoundf(format string, args ...any) error { return errNotFoundf(format, args...) }

// CheckOriginFilter reports whether f is a RunFilter.Origin value.
func CheckOriginFilter(f string) error {
	_, _, err := originWhere(f)
	return err
}
