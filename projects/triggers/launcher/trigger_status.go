package launcher

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
)

// Status is a trigger as `strata triggers`, the API and the trigger panel
// show it.
type Status struct {
	Pipeline    string         `json:"pipeline"`
	ID          string         `json:"id"`
	Kind        string         `json:"kind"`
	Cron        string         `json:"cron,omitempty"`
	Timezone    string         `json:"timezone,omitempty"`
	Product     string         `json:"product,omitempty"`
	Changes     string         `json:"changes,omitempty"` // an event trigger's: new-version or new-key
	Run         string         `json:"run"`
	CatchUp     int            `json:"catch_up,omitempty"`
	Line        int            `json:"line"`
	Disabled    string         `json:"disabled,omitempty"` // why it never fires (see project.Trigger.Disabled)
	Paused      bool           `json:"paused"`
	PausedSince time.Time      `json:"paused_since,omitzero"`
	Next        []Tick         `json:"next,omitempty"`
	Last        *Firing        `json:"last,omitempty"`
	CatchUpPlan *triggers.Plan `json:"catch_up_plan,omitempty"` // what the next step does when ticks were missed
	History     []Firing       `json:"history,omitempty"`
}

// Tick is one schedule tick and what it would run.
type Tick struct {
	At    time.Time `json:"at"`    // UTC
	Local string    `json:"local"` // in the trigger's zone, with its abbreviation
	From  string    `json:"from,omitempty"`
	To    string    `json:"to,omitempty"`
	Error string    `json:"error,omitempty"` // the tick would fail to pick partitions
}

// List returns the status of every trigger of the project (pipeline ""), or
// of one pipeline. db may be nil (another process holds the warehouse):
// then history, last firings and catch-up plans are left out.
func List(ctx context.Context, proj *project.Project, db *sql.DB, pipeline string, now time.Time, next, history int) ([]Status, error) {
	paused, err := Paused(proj.Dir)
	if err != nil {
		return nil, err
	}
	var st *tickStore
	anchors := map[string]time.Time{}
	if db != nil {
		if st, err = openTickStore(ctx, db); err != nil {
			return nil, err
		}
		if anchors, err = st.anchors(ctx); err != nil {
			return nil, err
		}
	}
	var out []Status
	for _, id := range proj.PipelineIDs() {
		if pipeline != "" && id != pipeline {
			continue
		}
		pl := proj.Pipelines[id]
		for _, t := range pl.Triggers {
			s := Status{Pipeline: id, ID: t.ID, Kind: t.Kind, Cron: t.Cron, Product: t.Product, Changes: t.Changes, Run: t.Run.String(), Line: t.Line, Disabled: t.Disabled}
			if t.Kind == project.TriggerSchedule {
				s.Timezone, s.CatchUp = t.Timezone, t.CatchUp
			}
			if p, ok := paused[pauseKey(id, t.ID)]; ok {
				s.Paused, s.PausedSince = true, p.Since
			}
			if t.Schedule != nil && next > 0 {
				s.Next = previewTicks(pl, t, now, t.Schedule.Ticks(now, now.AddDate(10, 0, 0), next))
			}
			if st != nil {
				h, err := st.history(ctx, id, t.ID, max(history, 1))
				if err != nil {
					return nil, err
				}
				if len(h) > 0 {
					s.Last = &h[0]
				}
				if history > 0 {
					s.History = h
				}
				if a, ok := anchors[pauseKey(id, t.ID)]; ok && t.Schedule != nil {
					if plan := triggers.Due(t.Schedule, a, now, t.CatchUp); len(plan.Run) > 1 || plan.Skipped > 0 {
						s.CatchUpPlan = &plan
					}
				}
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// TickPage is one page of a preview. A span with more ticks than the
// limit used to end silently at the limit (1000 by default), so a year of an
// hourly schedule read as its first six weeks: Truncated says there are
// more, and NextFrom is the first tick left out, the from of the next page.
type TickPage struct {
	Ticks     []Tick     `json:"ticks"`
	Truncated bool       `json:"truncated"`
	NextFrom  *time.Time `json:"next_from,omitempty"`
}

// Preview is exactly which runs a schedule trigger would have fired in
// [from, to]: each tick with the partitions it runs, at most limit of them
// (limit > 0). Nothing is recorded.
func Preview(pl *project.Pipeline, t *project.Trigger, from, to time.Time, limit int) (TickPage, error) {
	if t.Schedule == nil {
		return TickPage{}, fmt.Errorf("trigger %s of pipeline %s fires on %s, not on a schedule: nothing to preview", t.ID, pl.ID, kindText(t))
	}
	if to.Before(from) {
		return TickPage{}, fmt.Errorf("preview: --to %s is before --from %s", to.Format(time.RFC3339), from.Format(time.RFC3339))
	}
	if limit <= 0 {
		return TickPage{}, fmt.Errorf("preview: limit %d: want at least 1", limit)
	}
	ticks := t.Schedule.Ticks(from.Add(-time.Nanosecond), to, limit+1)
	page := TickPage{}
	if len(ticks) > limit {
		next := ticks[limit].UTC()
		page.Truncated, page.NextFrom, ticks = true, &next, ticks[:limit]
	}
	page.Ticks = previewTicks(pl, t, from, ticks)
	return page, nil
}

func kindText(t *project.Trigger) string {
	if t.Kind == project.TriggerEvent && t.Changes == project.ChangesNewKey {
		return "new keys of " + strings.Join(t.Dims, ", ") + " in " + t.Product
	}
	if t.Kind == project.TriggerEvent {
		return "new versions of " + t.Product
	}
	return "API calls"
}

func previewTicks(pl *project.Pipeline, t *project.Trigger, _ time.Time, ticks []time.Time) []Tick {
	spec, specErr := engine.SpecOf(pl.Partitions)
	out := make([]Tick, 0, len(ticks))
	for _, tk := range ticks {
		x := Tick{At: tk.UTC(), Local: tk.In(t.Schedule.Zone).Format("2006-01-02 15:04 MST")}
		if specErr != nil {
			x.Error = specErr.Error()
		} else if from, to, err := t.Run.Window(spec, tk); err != nil {
			x.Error = err.Error()
		} else {
			x.From, x.To = from, to
		}
		out = append(out, x)
	}
	return out
}

// FireRequest is an API call to a trigger: a partition, a range, or nothing
// (the trigger's own run: window at now).
type FireRequest struct {
	Partition string `json:"partition,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
}

// Fire launches a trigger's work now, for an external system. It returns
// the recorded firing, whose WorkID is the backfill (or, for an
// unpartitioned pipeline, run) id.
func (l *Loop) Fire(ctx context.Context, pipeline, trigger string, req FireRequest) (*Firing, error) {
	pl, err := l.eng.Pipeline(pipeline)
	if err != nil {
		return nil, err
	}
	t := pl.Trigger(trigger)
	if t == nil {
		var ids []string
		for _, x := range pl.Triggers {
			ids = append(ids, x.ID)
		}
		return nil, engine.NotFoundf("pipeline %s has no trigger %q (triggers: %s)", pl.ID, trigger, strings.Join(ids, ", "))
	}
	spec, err := engine.SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	now := l.clock.Now()
	from, to := req.From, req.To
	switch {
	case req.Partition != "" && (from != "" || to != ""):
		return nil, badRequest("fire: give a partition or a range (from, to), not both")
	case req.Partition != "":
		from, to = req.Partition, req.Partition
	case from != "" || to != "":
		if from == "" || to == "" {
			return nil, badRequest("fire: a range needs both from and to (partition keys, both included)")
		}
	case t.Kind == project.TriggerEvent:
		return nil, badRequest("fire: trigger %s runs the partitions an upstream change affected; say which: {\"partition\": ...} or {\"from\": ..., \"to\": ...}", t.ID)
	default:
		if from, to, err = t.Run.Window(spec, now); err != nil {
			return nil, &engine.SpecError{Err: err}
		}
	}
	if spec.Interval == partitions.None {
		from, to = partitions.AllKey, partitions.AllKey
	} else {
		for _, k := range []string{from, to} {
			if _, err := spec.Parse(k); err != nil {
				return nil, &engine.SpecError{Err: fmt.Errorf("fire: %w", err)}
			}
		}
	}
	request := from
	if to != from {
		request += ".." + to
	}
	f := Firing{Pipeline: pl.ID, Trigger: t.ID, Source: project.TriggerAPI, Tick: now, RecordedAt: now, Action: ActionLaunched,
		WorkID:   "api_" + pl.ID + "_" + t.ID + "_" + now.UTC().Format("20060102T150405.000000000Z"),
		WorkKind: workKind(spec), From: from, To: to, Detail: "api " + request,
		Origin: encodeOrigin(&engine.Origin{Kind: engine.OriginTrigger, Trigger: t.ID, TriggerKind: project.TriggerAPI, Request: request})}
	if err := l.store.record(ctx, f); err != nil {
		return nil, err
	}
	if err := l.launch(l.workContext(), f, false); err != nil {
		fail := f
		fail.Action, fail.Detail = ActionFailed, err.Error()
		_ = l.store.record(ctx, fail)
		return nil, err
	}
	l.notify(pl.ID, []Firing{f})
	return &f, nil
}

func (l *Loop) workContext() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.runCtx
}

// History lists a trigger's firings, newest first.
func (l *Loop) History(ctx context.Context, pipeline, trigger string, limit int) ([]Firing, error) {
	return l.store.history(ctx, pipeline, trigger, limit)
}

// SetPaused pauses or resumes a trigger of the engine's project.
func (l *Loop) SetPaused(pipeline, trigger string, paused bool) error {
	proj := l.eng.Project()
	pl := proj.Pipelines[pipeline]
	if pl == nil {
		return engine.NotFoundf("pipeline %q not found", pipeline)
	}
	if pl.Trigger(trigger) == nil {
		return engine.NotFoundf("pipeline %s has no trigger %q", pipeline, trigger)
	}
	if _, err := SetPaused(proj.Dir, pipeline, trigger, paused, l.clock.Now()); err != nil {
		return err
	}
	if paused {
		l.skipQueued(pipeline, trigger)
	}
	l.Wake()
	return nil
}

// skipQueued records the ticks waiting in a just paused trigger's queue as
// skipped now, when the pause is taken, so history shows at once what the
// pause covers. (A pause written by another process is found by each tick
// when its turn comes: see skipPaused.)
func (l *Loop) skipQueued(pipeline, trigger string) {
	l.mu.Lock()
	q := l.queues[pauseKey(pipeline, trigger)]
	var waiting []Firing
	if q != nil {
		waiting, q.pending = q.pending, nil
	}
	ctx := l.runCtx
	l.mu.Unlock()
	for _, f := range waiting {
		if !l.skipPaused(ctx, f) {
			l.enqueue(f) // an API firing, or work that exists already
		}
	}
}

// ParseSpan reads a preview span: each end an RFC 3339 time, or a date
// (2024-03-01) or date and time (2024-03-01T02:30) read in loc. A date-only
// to is inclusive: the span runs to the end of that day.
func ParseSpan(from, to string, loc *time.Location) (time.Time, time.Time, error) {
	a, _, err := parseWhen(from, loc)
	if err != nil {
		return a, a, fmt.Errorf("from: %w", err)
	}
	b, dateOnly, err := parseWhen(to, loc)
	if err != nil {
		return a, b, fmt.Errorf("to: %w", err)
	}
	if dateOnly {
		b = time.Date(b.Year(), b.Month(), b.Day()+1, 0, 0, 0, 0, loc).Add(-time.Nanosecond)
	}
	if b.Before(a) {
		return a, b, fmt.Errorf("to %s is before from %s", to, from)
	}
	return a, b, nil
}

func parseWhen(s string, loc *time.Location) (time.Time, bool, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, false, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t, true, nil
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, false, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("%q: want a date (2024-03-01), a date and time in the trigger's zone (2024-03-01T02:30) or RFC 3339 (2024-03-01T07:30:00Z)", s)
}

// badRequest marks a refusal of the caller's input (the API answers 400).
func badRequest(format string, args ...any) error {
	return &engine.SpecError{Err: fmt.Errorf(format, args...)}
}
