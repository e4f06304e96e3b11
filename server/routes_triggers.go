package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers/launcher"
)

func (s *Server) triggerRoutes(g *echo.Group) {
	g.GET("/triggers", s.listTriggers)
	g.GET("/pipelines/:id/triggers", s.listTriggers)
	g.GET("/pipelines/:id/triggers/:trigger", s.getTrigger)
	g.GET("/pipelines/:id/triggers/:trigger/preview", s.previewTrigger)
	g.POST("/pipelines/:id/triggers/:trigger/fire", s.fireTrigger)
	g.POST("/pipelines/:id/triggers/:trigger/pause", s.pauseTrigger)
	g.POST("/pipelines/:id/triggers/:trigger/resume", s.resumeTrigger)
}

// listTriggers: GET /triggers and /pipelines/:id/triggers, each trigger with
// its next ticks, last firing, pause state and catch-up plan.
func (s *Server) listTriggers(c echo.Context) error {
	id := c.Param("id")
	if id != "" {
		if _, err := s.loadedPipeline(id); err != nil {
			return err
		}
	}
	next, err := intParam(c, "next", 5, 0, 100)
	if err != nil {
		return err
	}
	out, err := launcher.List(c.Request().Context(), s.eng.Project(), s.wh.DB(), id, s.triggers.Clock().Now(), next, 0)
	if err != nil {
		return err
	}
	if out == nil {
		out = []launcher.Status{}
	}
	return c.JSON(http.StatusOK, map[string]any{"triggers": out})
}

// trigger finds a trigger of a loaded pipeline.
func (s *Server) trigger(c echo.Context) (*project.Pipeline, *project.Trigger, error) {
	pl, err := s.loadedPipeline(c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	t := pl.Trigger(c.Param("trigger"))
	if t == nil {
		var ids []string
		for _, x := range pl.Triggers {
			ids = append(ids, x.ID)
		}
		return nil, nil, notFound("pipeline %s has no trigger %q (triggers: %s)", pl.ID, c.Param("trigger"), strings.Join(ids, ", "))
	}
	return pl, t, nil
}

// getTrigger: GET /pipelines/:id/triggers/:trigger?history=, with its history.
func (s *Server) getTrigger(c echo.Context) error {
	pl, t, err := s.trigger(c)
	if err != nil {
		return err
	}
	history, err := intParam(c, "history", 50, 1, 10_000)
	if err != nil {
		return err
	}
	next, err := intParam(c, "next", 5, 0, 100)
	if err != nil {
		return err
	}
	all, err := launcher.List(c.Request().Context(), s.eng.Project(), s.wh.DB(), pl.ID, s.triggers.Clock().Now(), next, history)
	if err != nil {
		return err
	}
	for _, st := range all {
		if st.ID == t.ID {
			if st.History == nil {
				st.History = []launcher.Firing{}
			}
			return c.JSON(http.StatusOK, st)
		}
	}
	return notFound("trigger %s of pipeline %s not found", t.ID, pl.ID)
}

// previewTrigger: GET .../preview?from=&to=&limit=, exactly which runs the
// schedule would have fired in that span; truncated and next_from (the from
// of the next page) when the span holds more than limit ticks. from and to are dates or times in
// the trigger's zone, or RFC 3339.
func (s *Server) previewTrigger(c echo.Context) error {
	pl, t, err := s.trigger(c)
	if err != nil {
		return err
	}
	if t.Schedule == nil {
		return badRequest("trigger %s is a %s trigger: only schedules have ticks to preview", t.ID, t.Kind)
	}
	from, to := c.QueryParam("from"), c.QueryParam("to")
	now := s.triggers.Clock().Now()
	if from == "" {
		from = now.Format(time.RFC3339)
	}
	if to == "" {
		to = now.AddDate(0, 0, 7).Format(time.RFC3339)
	}
	a, b, err := launcher.ParseSpan(from, to, t.Schedule.Zone)
	if err != nil {
		return badRequest("%s", err.Error())
	}
	limit, err := intParam(c, "limit", 1000, 1, 100_000)
	if err != nil {
		return err
	}
	page, err := launcher.Preview(pl, t, a, b, limit)
	if err != nil {
		return badRequest("%s", err.Error())
	}
	out := map[string]any{"pipeline": pl.ID, "trigger": t.ID, "from": a, "to": b, "ticks": page.Ticks, "truncated": page.Truncated}
	if page.NextFrom != nil {
		out["next_from"] = page.NextFrom
	}
	return c.JSON(http.StatusOK, out)
}

// fireTrigger: POST .../fire {"partition"} or {"from","to"} or {}: launch the
// trigger's work now; 201 with the backfill (or run) id.
func (s *Server) fireTrigger(c echo.Context) error {
	pl, t, err := s.trigger(c)
	if err != nil {
		return err
	}
	if len(pl.Problems) > 0 {
		return invalidPipeline(pl.ID, pl.Problems)
	}
	var req launcher.FireRequest
	if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	}
	f, err := s.triggers.Fire(c.Request().Context(), pl.ID, t.ID, req)
	if err != nil {
		return specError(err)
	}
	out := map[string]any{"firing": f, "work_id": f.WorkID, "kind": f.WorkKind}
	if f.WorkKind == launcher.WorkBackfill {
		out["backfill_id"] = f.WorkID
	} else {
		out["run_id"] = f.WorkID
	}
	return c.JSON(http.StatusCreated, out)
}

func (s *Server) pauseTrigger(c echo.Context) error  { return s.setTriggerPaused(c, true) }
func (s *Server) resumeTrigger(c echo.Context) error { return s.setTriggerPaused(c, false) }

func (s *Server) setTriggerPaused(c echo.Context, paused bool) error {
	pl, t, err := s.trigger(c)
	if err != nil {
		return err
	}
	if err := s.triggers.SetPaused(pl.ID, t.ID, paused); err != nil {
		return err
	}
	return s.getTrigger(c)
}

// startTriggers runs the trigger loop until Shutdown.
func (s *Server) startTriggers() {
	if s.cfg.NoTriggers || s.triggersDone != nil {
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.triggersStop, s.triggersDone = cancel, make(chan struct{})
	go func() {
		defer close(s.triggersDone)
		if err := s.triggers.Run(ctx); err != nil {
			s.log.Error("triggers stopped", "err", err)
		}
	}()
}

func (s *Server) stopTriggers(ctx context.Context) {
	if s.triggersDone == nil {
		return
	}
	s.triggersStop()
	select {
	case <-s.triggersDone:
	case <-ctx.Done():
	}
}
