package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/replay"
)

// replayRoutes: replay tests (projects/replay) started from the UI or the
// API; they publish nothing, and their reports stay in memory.
func (s *Server) replayRoutes(g *echo.Group) {
	g.POST("/pipelines/:id/replays", s.startReplay)
	g.GET("/replays/:id", s.getReplay)
}

// startReplay: POST /pipelines/:id/replays {"last": 30} or {"from", "to"},
// with "expect_unchanged" (products), "engine" and "rows". The replay runs
// in the background; the answer (202) is its job, which GET /replays/:id
// reads until its state is done (with the report) or error.
func (s *Server) startReplay(c echo.Context) error {
	pl, err := s.runnablePipeline(c.Param("id"))
	if err != nil {
		return err
	}
	var req struct {
		Last            int      `json:"last"`
		From            string   `json:"from"`
		To              string   `json:"to"`
		ExpectUnchanged []string `json:"expect_unchanged"`
		Engine          string   `json:"engine"`
		Rows            int      `json:"rows"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if req.Rows < 0 || req.Rows > 1000 {
		return badRequest("rows %d: want 0 to 1000", req.Rows)
	}
	job, err := s.replays.Start(s.ctx, replay.Options{Pipeline: pl.ID, Last: req.Last, From: req.From, To: req.To,
		ExpectUnchanged: req.ExpectUnchanged, Engine: req.Engine, Rows: req.Rows})
	if err != nil {
		return badRequest("%s", err.Error())
	}
	return c.JSON(http.StatusAccepted, job)
}

// getReplay: GET /replays/:id.
func (s *Server) getReplay(c echo.Context) error {
	job, ok := s.replays.Get(c.Param("id"))
	if !ok {
		return notFound("replay %q not found (replays are kept in memory: the last 20 of this server's life)", c.Param("id"))
	}
	return c.JSON(http.StatusOK, job)
}
