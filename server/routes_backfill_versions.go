package server

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
)

// retryWith: POST /backfills/:id/retry?use_current_code=&dry_run=. The
// retry runs the backfill's pipeline version, or the files as they are now
// with use_current_code; dry_run answers the RetryPlan instead, which shows
// that change.
func (s *Server) retryWith(c echo.Context) error {
	current, err := boolParam(c, "use_current_code")
	if err != nil {
		return err
	}
	dry, err := boolParam(c, "dry_run")
	if err != nil {
		return err
	}
	if dry {
		id, err := backfillID(c)
		if err != nil {
			return err
		}
		rp, err := s.eng.PlanRetry(c.Request().Context(), id, current)
		if err != nil {
			return actionError(err)
		}
		return c.JSON(http.StatusOK, rp)
	}
	// {"partitions": [...]}: retry those only (a group of failures).
	var req struct {
		Partitions []string `json:"partitions"`
	}
	if c.Request().ContentLength != 0 {
		if err := decodeJSON(c, &req); err != nil {
			return err
		}
	}
	return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) {
		if req.Partitions != nil {
			return s.eng.RetryPartitions(ctx, id, req.Partitions, current)
		}
		return s.eng.Retry(ctx, id, current)
	})
}

// backfillFailures: GET /backfills/:id/failures, the failed and cancelled
// partitions grouped by block and error class, largest group first.
func (s *Server) backfillFailures(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	groups, err := s.eng.BackfillFailures(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if groups == nil {
		groups = []engine.FailureGroup{}
	}
	return c.JSON(http.StatusOK, map[string]any{"backfill_id": id, "groups": groups})
}

func boolParam(c echo.Context, name string) (bool, error) {
	v := c.QueryParam(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badRequest("%s %q: want true or false", name, v)
	}
	return b, nil
}

// backfillConflicts: GET /backfills/:id/conflicts, every product partition
// the backfill did not make current because newer work was.
func (s *Server) backfillConflicts(c echo.Context) error {
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.eng.Backfill(ctx, id); err != nil {
		return err
	}
	cs, err := s.eng.Conflicts(ctx, id)
	if err != nil {
		return err
	}
	if cs == nil {
		cs = []engine.BackfillConflict{}
	}
	return c.JSON(http.StatusOK, map[string]any{"backfill_id": id, "conflicts": cs})
}

// resolveBackfill: POST /backfills/:id/promote-anyway and /keep-newer with
// an optional body {"partitions": [...]} (default: every conflict).
func (s *Server) resolveBackfill(keepNewer bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		var body struct {
			Partitions []string `json:"partitions"`
		}
		if c.Request().ContentLength > 0 {
			if err := decodeJSON(c, &body); err != nil {
				return err
			}
		}
		return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) {
			if _, err := s.eng.Resolve(ctx, id, keepNewer, body.Partitions); err != nil {
				return nil, err
			}
			return s.eng.Backfill(ctx, id)
		})
	}
}
