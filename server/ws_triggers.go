package server

import (
	"context"
	"time"

	"github.com/stratahq/strata/projects/triggers/launcher"
)

// wsTriggers answers a websocket triggers request with the same data as
// the HTTP routes: list (the triggers of one pipeline, or all), pause,
// resume (each answered by the trigger's status) and preview (its ticks).
func (s *Server) wsTriggers(m ClientMessage) Message {
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	fail := func(err error) Message {
		ae := toAPIError(err)
		return ErrorMessage(m.ID, ae.Code, ae.Message)
	}
	now := s.triggers.Clock().Now()
	status := func(pipeline, trigger string) Message {
		all, err := launcher.List(ctx, s.eng.Project(), s.wh.DB(), pipeline, now, 5, 20)
		if err != nil {
			return fail(err)
		}
		out := Message{Type: MsgTriggers, ID: m.ID, Pipeline: pipeline, Triggers: []launcher.Status{}}
		for _, st := range all {
			if trigger == "" || st.ID == trigger {
				out.Triggers = append(out.Triggers, st)
			}
		}
		return out
	}
	switch m.Action {
	case "list", "":
		if m.Pipeline != "" {
			if _, err := s.loadedPipeline(m.Pipeline); err != nil {
				return fail(err)
			}
		}
		return status(m.Pipeline, "")
	case "pause", "resume":
		if err := s.triggers.SetPaused(m.Pipeline, m.Trigger, m.Action == "pause"); err != nil {
			return fail(err)
		}
		return status(m.Pipeline, m.Trigger)
	case "preview":
		pl, err := s.loadedPipeline(m.Pipeline)
		if err != nil {
			return fail(err)
		}
		t := pl.Trigger(m.Trigger)
		if t == nil {
			return fail(notFound("pipeline %s has no trigger %q", pl.ID, m.Trigger))
		}
		if t.Schedule == nil {
			return fail(badRequest("trigger %s is a %s trigger: only schedules have ticks to preview", t.ID, t.Kind))
		}
		a, b, err := launcher.ParseSpan(m.From, m.To, t.Schedule.Zone)
		if err != nil {
			return fail(badRequest("%s", err.Error()))
		}
		page, err := launcher.Preview(pl, t, a, b, 1000)
		if err != nil {
			return fail(badRequest("%s", err.Error()))
		}
		return Message{Type: MsgTriggers, ID: m.ID, Pipeline: pl.ID, Ticks: page.Ticks, Truncated: page.Truncated, NextFrom: page.NextFrom}
	}
	return ErrorMessage(m.ID, WSInvalid, "triggers action "+quote(m.Action)+": want list, pause, resume or preview")
}
