package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
)

func (s *Server) backfillRoutes(g *echo.Group) {
	g.POST("/backfills/plan", s.planBackfill)
	g.POST("/backfills", s.launchBackfill)
	g.GET("/backfills", s.listBackfills)
	g.GET("/backfills/:id", s.getBackfill)
	g.GET("/backfills/:id/partitions", s.backfillPartitions)
	g.POST("/backfills/:id/retry", s.retryBackfill)
	g.GET("/backfills/:id/failures", s.backfillFailures)
	g.GET("/backfills/:id/conflicts", s.backfillConflicts)
	g.POST("/backfills/:id/promote-anyway", s.resolveBackfill(false))
	g.POST("/backfills/:id/keep-newer", s.resolveBackfill(true))
	g.POST("/backfills/:id/cancel", s.cancelBackfill)
	g.POST("/backfills/:id/pause", s.pauseBackfill)
	g.POST("/backfills/:id/resume", s.resumeBackfill)
}

// backfillSpec reads a BackfillSpec body and checks its pipeline, so an
// unknown pipeline is a 404 and a broken one a 422 with its problems.
func (s *Server) backfillSpec(c echo.Context) (engine.BackfillSpec, error) {
	var spec engine.BackfillSpec
	if err := decodeJSON(c, &spec); err != nil {
		return spec, err
	}
	if spec.Pipeline == "" {
		return spec, badRequest("pipeline is required")
	}
	spec.Actor = actorName(c) // never the client's say
	if spec.Into != "" {
		// Pins are owned by environments and review backfills; a client
		// names an environment in the path instead (routes_envs.go).
		return spec, badRequest("into %q: launch a backfill into an environment with POST /api/v1/envs/NAME/backfills", spec.Into)
	}
	if _, err := s.runnablePipeline(spec.Pipeline); err != nil {
		return spec, err
	}
	return spec, nil
}

// specError: what the engine refuses in a spec (a bad range, an unknown
// policy, a concurrency out of range) is the client's to fix (400); anything
// else, such as a failure to record the backfill, is the server's (500).
func specError(err error) error {
	var se *engine.SpecError
	if errors.As(err, &se) {
		return badRequest("%s", err.Error())
	}
	return err
}

// compileError: code that does not compile, refused at a launch or at a
// retry with the current code, is the client's to fix (422), with each
// problem's file:line:col in details.problems; nil for other errors.
func compileError(err error) *APIError {
	var ce *engine.CompileError
	if !errors.As(err, &ce) {
		return nil
	}
	e := apiErr(http.StatusUnprocessableEntity, CodeUnprocessable, "%s", err.Error())
	e.Details = map[string]any{"problems": ce.Problems}
	return e
}

// actionError: a lifecycle action refused for the backfill's current state
// (pause one that is not running, retry one still running) is a conflict.
func actionError(err error) error {
	var nf *engine.NotFoundError
	if errors.As(err, &nf) || errors.Is(err, context.Canceled) {
		return err
	}
	var se *engine.SpecError
	if errors.As(err, &se) {
		return badRequest("%s", err.Error()) // a retry naming partitions it cannot retry
	}
	if ce := compileError(err); ce != nil {
		return ce
	}
	return conflict("%s", err.Error())
}

// planBackfill: POST /backfills/plan?offset=&limit=, the dry run.
func (s *Server) planBackfill(c echo.Context) error {
	spec, err := s.backfillSpec(c)
	if err != nil {
		return err
	}
	offset, err := intParam(c, "offset", 0, 0, 1<<30)
	if err != nil {
		return err
	}
	limit, err := intParam(c, "limit", 500, 1, 100_000)
	if err != nil {
		return err
	}
	plan, err := s.eng.Plan(c.Request().Context(), spec, offset, limit)
	if err != nil {
		return specError(err)
	}
	return c.JSON(http.StatusOK, plan)
}

func (s *Server) launchBackfill(c echo.Context) error { return s.launchBackfillIn(c, "") }

// launchBackfillIn is launchBackfill into an environment (owner, its pin
// owner; "" is prod): routes_envs.go.
func (s *Server) launchBackfillIn(c echo.Context, owner string) error {
	spec, err := s.backfillSpec(c)
	if err != nil {
		return err
	}
	spec.Into = owner
	st, err := s.eng.Launch(c.Request().Context(), spec)
	var overlap *engine.OverlapError
	if errors.As(err, &overlap) {
		return conflict("%s", err.Error())
	}
	if ce := compileError(err); ce != nil {
		return ce
	}
	if err != nil {
		return specError(err)
	}
	auditTarget(c, st.ID)
	auditPipeline(c, st.Pipeline)
	return c.JSON(http.StatusCreated, st)
}

func (s *Server) listBackfills(c echo.Context) error {
	bs, err := s.eng.Backfills(c.Request().Context())
	if err != nil {
		return err
	}
	if bs == nil {
		bs = []*engine.BackfillStatus{}
	}
	return c.JSON(http.StatusOK, map[string]any{"backfills": bs})
}

func backfillID(c echo.Context) (string, error) {
	id := c.Param("id")
	if id == "" || len(id) > 256 {
		return "", badRequest("backfill id %q is not valid", id)
	}
	return id, nil
}

func (s *Server) getBackfill(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	st, err := s.eng.Backfill(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, st)
}

// backfillPartitions: GET /backfills/:id/partitions?state=&offset=&limit=&where=,
// a page of the partition grid and how many partitions match. where
// (repeatable, region=eu,us) narrows the value dimensions: the grid's
// filter, answered a page at a time like the rest.
func (s *Server) backfillPartitions(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	state := c.QueryParam("state")
	switch engine.State(state) {
	case "", engine.StateQueued, engine.StateRunning, engine.StateSucceeded, engine.StateFailed,
		engine.StateSkipped, engine.StateCancelled, engine.StatePaused, engine.StateConflict:
	default:
		return badRequest("state %q: want queued, running, succeeded, failed, skipped, cancelled or conflict", state)
	}
	offset, err := intParam(c, "offset", 0, 0, 1<<30)
	if err != nil {
		return err
	}
	limit, err := intParam(c, "limit", 500, 1, 100_000)
	if err != nil {
		return err
	}
	where, err := whereParams(c.QueryParams()["where"])
	if err != nil {
		return err
	}
	ps, total, err := s.eng.BackfillPartitionsQuery(c.Request().Context(), id, engine.PartitionQuery{State: state, Where: where, Offset: offset, Limit: limit})
	if err != nil {
		var se *engine.SpecError
		if errors.As(err, &se) {
			return badRequest("%s", err.Error())
		}
		return err
	}
	if ps == nil {
		ps = []engine.PartitionStatus{}
	}
	return c.JSON(http.StatusOK, map[string]any{"backfill_id": id, "partitions": ps, "total": total, "offset": offset, "limit": limit})
}

func (s *Server) retryBackfill(c echo.Context) error {
	return s.retryWith(c)
}

func (s *Server) resumeBackfill(c echo.Context) error {
	return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) { return s.eng.Resume(ctx, id) })
}

func (s *Server) cancelBackfill(c echo.Context) error {
	return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) {
		if err := s.eng.Cancel(ctx, id); err != nil {
			return nil, err
		}
		return s.eng.Backfill(ctx, id)
	})
}

func (s *Server) pauseBackfill(c echo.Context) error {
	return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) {
		if err := s.eng.Pause(ctx, id); err != nil {
			return nil, err
		}
		return s.eng.Backfill(ctx, id)
	})
}

// backfillAction runs a lifecycle action and answers with the new status.
func (s *Server) backfillAction(c echo.Context, act func(context.Context, string) (*engine.BackfillStatus, error)) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.eng.Backfill(ctx, id); err != nil {
		return err // 404 for an unknown id, before the action's own checks
	}
	st, err := act(ctx, id)
	if err != nil {
		return actionError(err)
	}
	return c.JSON(http.StatusOK, st)
}

// recoverBackfills resumes what a crash or an earlier shutdown interrupted.
func (s *Server) recoverBackfills(ctx context.Context) error {
	ids, err := s.eng.RecoverBackfills(ctx)
	if len(ids) > 0 {
		s.log.Info("resumed interrupted backfills", "backfills", ids)
	}
	return err
}

// shutdownEngine checkpoints in-flight backfills so the next start resumes them.
func (s *Server) shutdownEngine(ctx context.Context) { s.eng.Shutdown(ctx) }

// whereParams parses repeated where=DIMENSION=VALUE[,VALUE…] parameters.
func whereParams(qs []string) (map[string][]string, error) {
	if len(qs) == 0 {
		return nil, nil
	}
	out := map[string][]string{}
	for _, q := range qs {
		name, vals, ok := strings.Cut(q, "=")
		if name = strings.TrimSpace(name); !ok || name == "" {
			return nil, badRequest("where %q: want DIMENSION=VALUE[,VALUE…] such as region=eu,us", q)
		}
		for _, v := range strings.Split(vals, ",") {
			if v = strings.TrimSpace(v); v == "" {
				return nil, badRequest("where %q: an empty value: want DIMENSION=VALUE[,VALUE…] such as region=eu,us", q)
			}
			out[name] = append(out[name], v)
		}
	}
	return out, nil
}
