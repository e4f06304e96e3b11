package alerts

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers/launcher"
)

// feedBuffer is how many notices may wait for the feed; a notice the
// hub cannot queue is dropped by the hub, so it is generous.
const feedBuffer = 4096

// Follow turns the engine's notices into alerts until ctx ends; it returns
// when the subscription is closed. eng gives the backfill states the
// notices only name.
func Follow(ctx context.Context, eng *engine.Engine, n *Notifier) {
	sub := eng.Hub().Subscribe(feedBuffer, relevant)
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case no, ok := <-sub.C:
			if !ok {
				return
			}
			n.observe(ctx, eng, no)
		}
	}
}

// relevant runs inside the hub's Publish: it only looks at fields.
func relevant(no engine.Notice) bool {
	switch {
	case no.Event != nil:
		return no.Event.Block == "" && (no.Event.State == engine.StateRunning || no.Event.State == engine.StateFailed)
	case no.Progress != nil:
		return no.Progress.State != ""
	case no.Review != nil:
		return true
	}
	_, ok := no.Data.(*launcher.Firing)
	return ok
}

func (n *Notifier) observe(ctx context.Context, eng *engine.Engine, no engine.Notice) {
	switch {
	case no.Event != nil:
		ev := no.Event
		if ev.BackfillID != "" {
			return // a backfill's runs alert through the backfill's end
		}
		if ev.State == engine.StateRunning {
			n.Rearm(ev.RunID)
			return
		}
		kind, what := project.AlertRunFailed, "Run"
		if strings.HasPrefix(ev.RunID, "fresh_") {
			kind, what = project.AlertFreshnessFailed, "Freshness refresh"
		}
		n.Notify(Alert{Kind: kind, Subject: ev.RunID, Pipeline: ev.Pipeline,
			Title: fmt.Sprintf("%s of %s %s failed", what, ev.Pipeline, ev.Partition), Text: ev.Error}, "/runs/"+url.PathEscape(ev.RunID))
	case no.Progress != nil:
		p := no.Progress
		link := "/backfills/" + url.PathEscape(p.BackfillID)
		switch p.State {
		case engine.StateRunning:
			n.Rearm(p.BackfillID)
		case engine.StateFailed, engine.StateNeedsAttention, engine.StateReview:
			pl, msg := "", ""
			if st, err := eng.Backfill(ctx, p.BackfillID); err == nil {
				pl, msg = st.Pipeline, st.Message
			}
			a := Alert{Subject: p.BackfillID, Pipeline: pl, Text: msg}
			switch p.State {
			case engine.StateFailed:
				a.Kind, a.Title = project.AlertBackfillFailed, fmt.Sprintf("Backfill %s of %s failed", p.BackfillID, pl)
			case engine.StateNeedsAttention:
				a.Kind, a.Title = project.AlertNeedsAttention, fmt.Sprintf("Backfill %s of %s needs attention", p.BackfillID, pl)
			default:
				a.Kind, a.Title = project.AlertReviewReady, fmt.Sprintf("Backfill %s of %s is ready for review", p.BackfillID, pl)
			}
			n.Notify(a, link)
		}
	case no.Review != nil:
		rv := no.Review
		if rv.Backfill == nil || rv.Backfill.State != engine.StateReview || rv.GatesPassed {
			return
		}
		var failed []string
		for _, g := range rv.Gates {
			if !g.Passed {
				failed = append(failed, g.Name+": "+g.Detail)
			}
		}
		n.Notify(Alert{Kind: project.AlertCheckFailed, Subject: rv.Backfill.ID, Pipeline: rv.Backfill.Pipeline,
			Title: fmt.Sprintf("Review checks of backfill %s of %s failed", rv.Backfill.ID, rv.Backfill.Pipeline),
			Text:  strings.Join(failed, "\n")}, "/backfills/"+url.PathEscape(rv.Backfill.ID))
	default:
		f, ok := no.Data.(*launcher.Firing)
		if !ok || f.Action != launcher.ActionFailed {
			return
		}
		subject := f.Pipeline + "/" + f.Trigger + "@" + f.Tick.UTC().Format("20060102T150405Z")
		n.Notify(Alert{Kind: project.AlertTriggerFailed, Subject: subject, Pipeline: f.Pipeline,
			Title: fmt.Sprintf("Trigger %s of %s could not launch", f.Trigger, f.Pipeline), Text: f.Detail},
			"/pipelines/"+url.PathEscape(f.Pipeline))
	}
}

// WorkerLost alerts that a worker stopped answering without saying it was
// leaving; the caller (which owns the worker pool) decides when.
func (n *Notifier) WorkerLost(worker, host, detail string) {
	n.Notify(Alert{Kind: project.AlertWorkerLost, Subject: worker,
		Title: fmt.Sprintf("Worker %s on %s was lost", worker, host), Text: detail}, "/runs?state=failed")
}
