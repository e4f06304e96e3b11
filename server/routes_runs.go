package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
)

func (s *Server) runRoutes(g *echo.Group) {
	g.POST("/pipelines/:id/runs", s.startRun)
	g.GET("/runs", s.listRuns)
	g.GET("/runs/:id", s.getRun)
}

// startRun: POST /pipelines/:id/runs {"partition", "engine"}; engine is
// interp or compiled, empty for compiled when a Go toolchain is found. The run starts in the
// background and the answer (202) carries its id at once; progress goes to
// websocket subscribers of run:<id> or pipeline:<id>, and GET /runs/:id
// reads it. With ?wait=true the answer is the finished run (200). A run
// outlives the request that started it: a client that goes away while
// waiting does not cancel it; shutting the server down does.
func (s *Server) startRun(c echo.Context) error {
	pl, err := s.runnablePipeline(c.Param("id"))
	if err != nil {
		return err
	}
	var req struct {
		Partition string `json:"partition"`
		Engine    string `json:"engine"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
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
	// The id is chosen here, not by the engine, so the client has it before
	// the run's first event.
	runID := "run_" + pl.ID + "_" + p.Key + "_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	type outcome struct {
		res *engine.RunResult
		err error
	}
	done := make(chan outcome, 1)
	s.runs.Add(1)
	go func() {
		defer s.runs.Done()
		res, err := s.eng.Run(s.ctx, pl.ID, p.Key, engine.RunOptions{RunID: runID, Engine: req.Engine})
		if err != nil && !errors.Is(err, s.ctx.Err()) {
			s.log.Warn("pipeline run failed to start or record", "run", runID, "err", err)
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

// listRuns: GET /runs?pipeline=&backfill=&partition=&origin=&limit=, newest first;
// origin is manual, trigger or trigger:<id>.
func (s *Server) listRuns(c echo.Context) error {
	limit, err := intParam(c, "limit", 100, 1, 10_000)
	if err != nil {
		return err
	}
	f := engine.RunFilter{Pipeline: c.QueryParam("pipeline"), BackfillID: c.QueryParam("backfill"),
		Partition: c.QueryParam("partition"), Origin: c.QueryParam("origin"), Limit: limit}
	if err := engine.CheckOriginFilter(f.Origin); err != nil {
		return badRequest("%s", err.Error())
	}
	runs, err := s.eng.Runs(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if runs == nil {
		runs = []engine.RunSummary{}
	}
	return c.JSON(http.StatusOK, map[string]any{"runs": runs})
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
