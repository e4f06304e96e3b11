package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/envs"
	"github.com/stratahq/strata/projects/tracing"
)

func (s *Server) runRoutes(g *echo.Group) {
	g.POST("/pipelines/:id/runs", s.startRun)
	g.GET("/runs", s.listRuns)
	g.GET("/runs/:id", s.getRun)
	g.POST("/runs/:id/cancel", s.cancelRun)
}

// startRun: POST /pipelines/:id/runs {"partition", "engine", "origin"}; engine is
// interp or compiled, empty for compiled when a Go toolchain is found;
// origin is editor (the web UI says so), cli or api (the default). A
// partition that has not started is refused (400) as a backfill's is. The run starts in the
// background and the answer (202) carries its id at once; progress goes to
// websocket subscribers of run:<id> or pipeline:<id>, and GET /runs/:id
// reads it. With ?wait=true the answer is the finished run (200). A run
// outlives the request that started it: a client that goes away while
// waiting does not cancel it; shutting the server down does.
func (s *Server) startRun(c echo.Context) error { return s.startRunIn(c, "") }

// startRunIn is startRun staging into an environment (owner, its pin
// owner; "" is prod): routes_envs.go.
func (s *Server) startRunIn(c echo.Context, owner string) error {
	pl, err := s.runnablePipeline(c.Param("id"))
	if err != nil {
		return err
	}
	var req struct {
		Partition string `json:"partition"`
		Engine    string `json:"engine"`
		Origin    string `json:"origin"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Origin == "" {
		req.Origin = engine.OriginAPI
	}
	origin, err := engine.PersonOrigin(req.Origin)
	if err != nil {
		return badRequest("%s", err.Error())
	}
	if _, err := engine.ParseEngine(req.Engine); err != nil {
		return badRequest("%s", err.Error())
	}
	wait := false
	if v := c.QueryParam("wait"); v != "" {
		if wait, err = strconv.ParseBool(v); err != nil {
			return badRequest("wait=%q: want true or false", v)
		}
	}
	spec, err := engine.SpecOf(pl.Partitions)
	if err != nil {
		return invalidPipeline(pl.ID, nil)
	}
	key := req.Partition
	if key == "" {
		key = spec.Latest(time.Now()).Key
	}
	p, err := spec.Parse(key)
	if err != nil {
		return badRequest("partition: %s", err.Error())
	}
	// Refused here, not only in the run, so the client hears it instead of
	// a 202 for a run that fails at once.
	if err := s.eng.CheckStarted(pl.ID, p.Key, time.Now()); err != nil {
		return err
	}
	// The id is chosen here, not by the engine, so the client has it before
	// the run's first event.
	runID := "run_" + pl.ID + "_" + p.Key + "_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	type outcome struct {
		res *engine.RunResult
		err error
	}
	done := make(chan outcome, 1)
	auditTarget(c, runID)
	actor := actorName(c) // read before the goroutine: echo reuses c
	s.runs.Add(1)
	go func() {
		defer s.runs.Done()
		opt := engine.RunOptions{RunID: runID, Engine: req.Engine, Origin: origin, Actor: actor}
		envs.RunInto(&opt, owner)
		res, err := s.eng.Run(s.ctx, pl.ID, p.Key, opt)
		if err != nil && !errors.Is(err, s.ctx.Err()) {
			s.log.WarnContext(tracing.WithRun(s.ctx, runID), "pipeline run failed to start or record", "err", err)
		}
		done <- outcome{res, err}
	}()
	if !wait {
		return c.JSON(http.StatusAccepted, map[string]string{"run_id": runID, "pipeline": pl.ID, "partition": p.Key, "state": string(engine.StateRunning)})
	}
	select {
	case o := <-done:
		if o.err != nil && o.res == nil {
			return o.err
		}
		return c.JSON(http.StatusOK, o.res)
	case <-c.Request().Context().Done():
		return c.Request().Context().Err()
	}
}

// listRuns: GET /runs?pipeline=&backfill=&partition=&origin=&state=&limit=&offset=,
// newest first; origin is editor, cli, api, backfill, trigger,
// trigger:<id>, freshness or manual. more says whether a next page exists.
func (s *Server) listRuns(c echo.Context) error {
	limit, err := intParam(c, "limit", 100, 1, 10_000)
	if err != nil {
		return err
	}
	offset, err := intParam(c, "offset", 0, 0, 1<<30)
	if err != nil {
		return err
	}
	f := engine.RunFilter{Pipeline: c.QueryParam("pipeline"), BackfillID: c.QueryParam("backfill"),
		Partition: c.QueryParam("partition"), Origin: c.QueryParam("origin"), State: engine.State(c.QueryParam("state")),
		Limit: limit + 1, Offset: offset}
	if err := engine.CheckOriginFilter(f.Origin); err != nil {
		return badRequest("%s", err.Error())
	}
	if f.State != "" && !engine.KnownState(f.State) {
		return badRequest("state %q: want one of %s", f.State, engine.StateNames())
	}
	runs, err := s.eng.Runs(c.Request().Context(), f)
	if err != nil {
		return err
	}
	more := len(runs) > limit
	if more {
		runs = runs[:limit]
	}
	if runs == nil {
		runs = []engine.RunSummary{}
	}
	return c.JSON(http.StatusOK, map[string]any{"runs": runs, "offset": offset, "limit": limit, "more": more})
}

// cancelRun: POST /runs/:id/cancel interrupts a run this server computes;
// 409 when it is not running here (it ended, or another process runs it).
func (s *Server) cancelRun(c echo.Context) error {
	id := c.Param("id")
	if id == "" || len(id) > 512 {
		return badRequest("run id %q is not valid", id)
	}
	err := s.eng.CancelRun(c.Request().Context(), id)
	var na *engine.RunNotActiveError
	if errors.As(err, &na) {
		return conflict("%s", err.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]string{"run_id": id, "state": "cancelling"})
}

// getRun: GET /runs/:id, the run with its block runs, timings and logs.
func (s *Server) getRun(c echo.Context) error {
	id := c.Param("id")
	if id == "" || len(id) > 512 {
		return badRequest("run id %q is not valid", id)
	}
	d, err := s.eng.RunDetail(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if d.Blocks == nil {
		d.Blocks = []engine.BlockRun{}
	}
	return c.JSON(http.StatusOK, d)
}
