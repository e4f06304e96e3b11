package server

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/server/auth"
)

// An editor builds in an environment (POST /envs/:name/backfills), so the
// editor who launched a backfill there stops it too: cancel, pause and
// resume of a backfill into an environment have routes under it, open to
// editors in the role table, and the handler lets through its launcher
// or an operator. Prod's backfills stay operator-only (/backfills/:id/…).
// The check is here, where the request enters; the engine is handed the
// action only once it passed.

func (s *Server) envBackfillRoutes(g *echo.Group) {
	g.POST("/envs/:name/backfills/:id/cancel", s.cancelEnvBackfill)
	g.POST("/envs/:name/backfills/:id/pause", s.pauseEnvBackfill)
	g.POST("/envs/:name/backfills/:id/resume", s.resumeEnvBackfill)
}

func (s *Server) cancelEnvBackfill(c echo.Context) error {
	return s.envBackfillAction(c, s.cancelBackfill)
}

func (s *Server) pauseEnvBackfill(c echo.Context) error {
	return s.envBackfillAction(c, s.pauseBackfill)
}

func (s *Server) resumeEnvBackfill(c echo.Context) error {
	return s.envBackfillAction(c, s.resumeBackfill)
}

// envBackfillAction runs the prod route's handler once the backfill is
// known to be into :name (404 otherwise: it is not this environment's) and
// the caller launched it or is an operator (403 otherwise).
func (s *Server) envBackfillAction(c echo.Context, act echo.HandlerFunc) error {
	owner, err := s.envOwner(c)
	if err != nil {
		return err
	}
	id, err := backfillID(c)
	if err != nil {
		return err
	}
	st, err := s.envBackfill(c.Request().Context(), owner, id)
	if err != nil {
		return err
	}
	p, _ := principal(c)
	if !p.Role.Allows(auth.Operator) && st.Spec.Actor != p.Name {
		e := apiErr(http.StatusForbidden, CodeForbidden, "backfill %s into %s was launched by %q: only its launcher or an operator stops it; %s is %s", id, c.Param("name"), st.Spec.Actor, p.Name, p.Role)
		e.Details = map[string]string{"launcher": st.Spec.Actor, "user": p.Name, "role": p.Role.String()}
		return e
	}
	return act(c)
}

// envBackfill is backfill id, which must be one into owner.
func (s *Server) envBackfill(ctx context.Context, owner, id string) (*engine.BackfillStatus, error) {
	st, err := s.eng.Backfill(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Spec.Into != owner {
		return nil, notFound("backfill %s is not into environment %s (it is into %s)", id, owner, intoName(st.Spec.Into))
	}
	return st, nil
}

// intoName says where a backfill publishes, for a message.
func intoName(into string) string {
	if into == "" {
		return "prod"
	}
	return into
}
