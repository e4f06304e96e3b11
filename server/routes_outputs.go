package server

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/notebook"
)

// GET /sessions/:session/outputs?pipeline= gives a reloaded page each cell's
// last output of its session (notebook.Session.Outputs), as the websocket
// message that ended the execution, with the partition it ran for and when.
// A session the server does not hold (a new tab, a restarted server) has
// none: an empty list, not a 404, since the page cannot tell them apart.

// cellOutputView is one cell's last output.
type cellOutputView struct {
	Block     string    `json:"block"`
	Partition string    `json:"partition"`
	At        time.Time `json:"at"`
	Message   Message   `json:"message"` // a result, or an error of code run
}

func (s *Server) outputRoutes(g *echo.Group) {
	g.GET("/sessions/:session/outputs", s.sessionOutputs)
}

func (s *Server) sessionOutputs(c echo.Context) error {
	if err := notebook.ValidID(c.Param("session")); err != nil {
		return badRequest("%s", err.Error())
	}
	pl := c.QueryParam("pipeline")
	if pl == "" {
		return badRequest("want ?pipeline=<id>")
	}
	out := struct {
		Outputs []cellOutputView `json:"outputs"`
	}{Outputs: []cellOutputView{}}
	if sess := s.sessions.Find(c.Param("session")); sess != nil {
		for _, o := range sess.Outputs(pl) {
			out.Outputs = append(out.Outputs, cellOutputView{Block: o.Block, Partition: o.Partition, At: o.At, Message: eventMessage(o.Final)})
		}
	}
	return c.JSON(http.StatusOK, out)
}
