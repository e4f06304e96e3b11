package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/envs"
)

// Environments (projects/envs): create, list, diff, promote and discard,
// and runs and backfills aimed at one. Runs and backfills into an
// environment have routes of their own, so that the role table can let an
// editor build in dev while only an operator changes prod.
func (s *Server) envRoutes(g *echo.Group) {
	g.GET("/envs", s.listEnvs)
	g.POST("/envs", s.createEnv)
	g.GET("/envs/:name", s.getEnv)
	g.DELETE("/envs/:name", s.discardEnv)
	g.GET("/envs/:name/diff", s.envDiff)
	g.GET("/envs/:name/diff/rows", s.envPartitionDiff)
	g.POST("/envs/:name/promote", s.promoteEnv)
	g.POST("/envs/:name/rollback", s.rollbackEnv)
	g.POST("/envs/:name/pipelines/:id/runs", s.startEnvRun)
	g.POST("/envs/:name/backfills", s.launchEnvBackfill)
	s.envBackfillRoutes(g)
}

func (s *Server) envStore() *envs.Store { return envs.New(s.wh, s.eng) }

// envError maps the environments' refusals: a bad name 400, a missing
// one 404, a taken one 409, a promote's conflict 409 naming the
// partitions (code review_conflict, as a review backfill's).
func envError(err error) error {
	var ce *envs.ConflictError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		e := conflict("%s", err.Error())
		e.Code = CodeReviewConflict
		e.Details = map[string]any{"op": ce.Op, "conflicts": ce.Conflicts, "resolve": ce.Resolve}
		return e
	case envs.IsNotFound(err):
		return notFound("%s", err.Error())
	case errors.Is(err, envs.ErrExists):
		return conflict("%s", err.Error())
	case strings.HasPrefix(err.Error(), "environment name"):
		return badRequest("%s", err.Error())
	case strings.Contains(err.Error(), "changes nothing"):
		return conflict("%s", err.Error())
	}
	return reviewError(err)
}

// envName reads and checks the :name parameter.
func envName(c echo.Context) (string, error) {
	name := c.Param("name")
	if err := envs.ValidateName(name); err != nil {
		return "", badRequest("%s", err.Error())
	}
	return name, nil
}

// listEnvs: GET /envs, every environment with what it holds of its own.
func (s *Server) listEnvs(c echo.Context) error {
	list, err := s.envStore().List(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, list)
}

// createEnv: POST /envs {"name": "dev", "triggers": false}; 201 with the
// environment. With triggers, every trigger firing's work is launched into
// it too.
func (s *Server) createEnv(c echo.Context) error {
	var body struct {
		Name     string `json:"name"`
		Triggers bool   `json:"triggers"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	e, err := s.envStore().Create(c.Request().Context(), body.Name, envs.CreateOptions{Actor: actorName(c), Triggers: body.Triggers})
	if err != nil {
		return envError(err)
	}
	auditTarget(c, e.Name)
	return c.JSON(http.StatusCreated, e)
}

// getEnv: GET /envs/:name.
func (s *Server) getEnv(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	e, err := s.envStore().Get(c.Request().Context(), name)
	if err != nil {
		return envError(err)
	}
	return c.JSON(http.StatusOK, e)
}

// discardEnv: DELETE /envs/:name drops the environment, its own versions
// and views; prod is untouched.
func (s *Server) discardEnv(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	n, err := s.envStore().Discard(c.Request().Context(), name)
	if err != nil {
		return envError(err)
	}
	return c.JSON(http.StatusOK, map[string]any{"env": name, "discarded_versions": n})
}

// envDiff: GET /envs/:name/diff, per pipeline and product what differs
// from prod, with column statistics and the review checks.
func (s *Server) envDiff(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	d, err := s.envStore().Diff(c.Request().Context(), name)
	if err != nil {
		return envError(err)
	}
	return c.JSON(http.StatusOK, d)
}

// envPartitionDiff: GET /envs/:name/diff/rows?product=P&partition=K&rows=N,
// the keyed row diff of one partition against prod's.
func (s *Server) envPartitionDiff(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	opt, err := partitionDiffOptions(c)
	if err != nil {
		return err
	}
	d, err := s.envStore().PartitionDiff(c.Request().Context(), name, opt)
	if err != nil {
		return envError(err)
	}
	return c.JSON(http.StatusOK, d)
}

// promoteEnv: POST /envs/:name/promote {"override": bool} switches every
// pointer of the environment into prod in one transaction.
func (s *Server) promoteEnv(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	var body struct {
		Override bool `json:"override"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	res, err := s.envStore().Promote(c.Request().Context(), name, body.Override, s.eng.Project().Dir)
	if err != nil {
		return envError(err)
	}
	return c.JSON(http.StatusOK, res)
}

// startEnvRun: POST /envs/:name/pipelines/:id/runs, a run staged in the
// environment (body and answers as POST /pipelines/:id/runs).
func (s *Server) startEnvRun(c echo.Context) error {
	owner, err := s.envOwner(c)
	if err != nil {
		return err
	}
	return s.startRunIn(c, owner)
}

// launchEnvBackfill: POST /envs/:name/backfills, a backfill staged in the
// environment (body and answers as POST /backfills).
func (s *Server) launchEnvBackfill(c echo.Context) error {
	owner, err := s.envOwner(c)
	if err != nil {
		return err
	}
	return s.launchBackfillIn(c, owner)
}

// draftEnv resolves the environment a notebook request names (?env= or a
// body's "env"; "" and "prod" are prod) to the pin owner its session's
// drafts are kept under.
func (s *Server) draftEnv(c echo.Context, name string) (string, error) {
	owner, err := s.envStore().Resolve(c.Request().Context(), name)
	return owner, envError(err)
}

// envOwner resolves :name to the environment's pin owner.
func (s *Server) envOwner(c echo.Context) (string, error) {
	name, err := envName(c)
	if err != nil {
		return "", err
	}
	owner, err := s.envStore().Resolve(c.Request().Context(), name)
	return owner, envError(err)
}

// envPage is a product preview page as an environment shows it (GET
// /products/:name/preview?env=NAME): its own versions, prod's elsewhere.
// Sorting and filtering are prod previews' only.
func (s *Server) envPage(c echo.Context, env string, pr productRequest) (*sdk.Table, int64, error) {
	if err := envs.ValidateName(env); err != nil {
		return nil, 0, badRequest("env: %s", err.Error())
	}
	if len(pr.q.Sort) > 0 || pr.q.Filter != "" || len(pr.q.Columns) > 0 {
		return nil, 0, badRequest("env %s: sort and filter apply to prod previews only; page without them", env)
	}
	limit := -1
	if pr.q.Limit > 0 {
		limit = pr.q.Offset + pr.q.Limit
	}
	t, total, err := s.envStore().Read(c.Request().Context(), env, pr.name, pr.sel, limit)
	if err != nil {
		return nil, 0, envError(err)
	}
	if pr.q.Offset > 0 {
		page := sdk.NewTable(t.Schema()...)
		for i := pr.q.Offset; i < t.Len(); i++ {
			page.Append(t.Row(i)...)
		}
		t = page
	}
	return t, total, nil
}

// rollbackEnv: POST /envs/:name/rollback {"batch": ""} undoes a promote of
// the environment (its latest when batch is empty): {"env", "batch",
// "rolled_back"}; 409 review_conflict (op rollback) where prod changed a
// partition since.
func (s *Server) rollbackEnv(c echo.Context) error {
	name, err := envName(c)
	if err != nil {
		return err
	}
	var body struct {
		Batch string `json:"batch"`
	}
	if err := decodeJSON(c, &body); err != nil {
		return err
	}
	batch, n, err := s.envStore().Rollback(c.Request().Context(), name, body.Batch)
	if err != nil {
		var ce *envs.ConflictError
		if errors.As(err, &ce) || envs.IsNotFound(err) {
			return envError(err)
		}
		return conflict("%s", err.Error())
	}
	return c.JSON(http.StatusOK, map[string]any{"env": name, "batch": batch, "rolled_back": n})
}
