package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// reviewRoutes: diffs between versions, and the review flow of a backfill
// published for review (engine/backfill_review.go, backfill_promote.go).
func (s *Server) reviewRoutes(g *echo.Group) {
	g.GET("/products/:name/diff", s.productDiff)
	g.GET("/backfills/:id/review", s.backfillReview)
	g.GET("/backfills/:id/diff", s.backfillPartitionDiff)
	g.POST("/backfills/:id/promote", s.promoteBackfill)
	g.POST("/backfills/:id/promote/plan", s.planPromote)
	g.POST("/backfills/:id/discard", s.discardBackfill)
	g.POST("/backfills/:id/rollback", s.rollbackBackfill)
}

// reviewError: failed gates and compare-and-set conflicts are 409s whose
// details list the gates or the partitions; a lifecycle refusal is a 409.
func reviewError(err error) error {
	// A malformed "only" is the request's fault, not the backfill's state.
	var se *engine.SpecError
	if errors.As(err, &se) {
		return badRequest("%s", err.Error())
	}
	var busy *engine.PromoteBusyError
	if errors.As(err, &busy) {
		e := conflict("%s", err.Error())
		e.Details = map[string]any{"running": map[string]any{"op": busy.Running.Op, "only": busy.Running.Only, "since": busy.Running.Since}}
		return e
	}
	var ge *engine.GateError
	if errors.As(err, &ge) {
		e := conflict("%s", err.Error())
		e.Details = map[string]any{"failed_checks": ge.Failed}
		return e
	}
	// A promote or rollback that met newer versions: its own code, so that a
	// client does not take it for a running backfill's publish conflict
	// (needs_attention, GET /backfills/:id/conflicts, promote-anyway).
	var rc *engine.ReviewConflictError
	if errors.As(err, &rc) {
		e := conflict("%s", err.Error())
		e.Code = CodeReviewConflict
		e.Details = map[string]any{"op": rc.Op, "conflicts": rc.Conflicts, "resolve": rc.Resolve}
		return e
	}
	var ce *warehouse.SwitchConflictError
	if errors.As(err, &ce) {
		e := conflict("%s", err.Error())
		e.Details = map[string]any{"conflicts": ce.Conflicts}
		return e
	}
	if errors.Is(err, warehouse.ErrNotFound) {
		return err
	}
	return actionError(err)
}

// productDiff: GET /products/:name/diff?partition=K&from=A&to=B&rows=N
// (to defaults to the current version, from to the one before it).
func (s *Server) productDiff(c echo.Context) error {
	name, err := productName(c)
	if err != nil {
		return err
	}
	part := c.QueryParam("partition")
	if part == "" {
		return badRequest("partition is required")
	}
	from, err := intParam(c, "from", 0, 0, 1<<30)
	if err != nil {
		return err
	}
	to, err := intParam(c, "to", 0, 0, 1<<30)
	if err != nil {
		return err
	}
	rows, err := intParam(c, "rows", 20, 0, 10_000)
	if err != nil {
		return err
	}
	d, err := s.eng.DiffVersions(c.Request().Context(), name, part, from, to, rows)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

// backfillReview: GET /backfills/:id/review, the review summary.
func (s *Server) backfillReview(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	rv, err := s.eng.BackfillReview(c.Request().Context(), id)
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, rv)
}

// backfillPartitionDiff: GET /backfills/:id/diff?product=P&partition=K&rows=N.
func (s *Server) backfillPartitionDiff(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	opt, err := partitionDiffOptions(c)
	if err != nil {
		return err
	}
	d, err := s.eng.BackfillPartitionDiff(c.Request().Context(), id, opt)
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, d)
}

// promoteBackfill: POST /backfills/:id/promote {"only": "A..B", "override": bool}.
func (s *Server) promoteBackfill(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	var opt engine.PromoteOptions
	if err := decodeJSON(c, &opt); err != nil {
		return err
	}
	opt.Actor = actorName(c)
	res, err := s.eng.PromoteBackfill(c.Request().Context(), id, opt)
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, res)
}

// planPromote: POST /backfills/:id/promote/plan {"only": "A..B"}, the
// promote's dry run: what it would make current now (the same selection),
// switching and recording nothing (so it is not audited as a promote).
func (s *Server) planPromote(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	var body struct {
		Only string `json:"only"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	res, err := s.eng.PromoteBackfill(c.Request().Context(), id, engine.PromoteOptions{Only: body.Only, DryRun: true, Actor: actorName(c)})
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, res)
}

// discardBackfill: POST /backfills/:id/discard.
func (s *Server) discardBackfill(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	n, err := s.eng.DiscardBackfill(c.Request().Context(), id)
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, map[string]any{"id": id, "discarded": n})
}

// rollbackBackfill: POST /backfills/:id/rollback.
func (s *Server) rollbackBackfill(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	n, err := s.eng.RollbackBackfill(c.Request().Context(), id)
	if err != nil {
		return reviewError(err)
	}
	return c.JSON(http.StatusOK, map[string]any{"id": id, "rolled_back": n})
}

// partitionDiffOptions reads ?product=P&partition=K&rows=N, what a keyed row
// diff of one partition needs (a review's and an environment's alike).
func partitionDiffOptions(c echo.Context) (engine.PartitionDiffOptions, error) {
	opt := engine.PartitionDiffOptions{Product: c.QueryParam("product"), Partition: c.QueryParam("partition")}
	if opt.Product == "" || opt.Partition == "" {
		return opt, badRequest("product and partition are required")
	}
	var err error
	opt.Rows, err = intParam(c, "rows", 20, 0, 10_000)
	return opt, err
}
