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
	return s.backfillAction(c, func(ctx context.Context, id string) (*engine.BackfillStatus, error) {
		return s.eng.Retry(ctx, id, current)
	})
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
