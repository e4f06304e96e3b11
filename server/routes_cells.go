package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

func (s *Server) cellRoutes(g *echo.Group) {
	g.POST("/pipelines/:id/cells/state", s.cellStates)
	g.GET("/pipelines/:id/blocks/:block/sql-tables", s.sqlTables)
}

// sqlTables: GET /pipelines/:id/blocks/:block/sql-tables?session= lists the
// relations a SQL cell can name and their columns, for completion.
func (s *Server) sqlTables(c echo.Context) error {
	owner, err := s.draftEnv(c, c.QueryParam("env"))
	if err != nil {
		return err
	}
	tables, err := s.sessions.SQLTables(c.Request().Context(), c.QueryParam("session"), c.Param("id"), c.Param("block"), owner)
	if err != nil {
		var nf *engine.NotFoundError
		if errors.As(err, &nf) {
			return err
		}
		return badRequest("%s", err.Error())
	}
	return c.JSON(http.StatusOK, map[string]any{"tables": tables})
}

// cellStates: POST /pipelines/:id/cells/state {"partition", "session",
// "sources": {block: editor text}} says for each cell whether its stored
// output and the session's draft are current or stale and why, and what
// "Run with upstream" runs. sources are the unsaved texts of edited cells.
// The judging is projects/notebook's.
func (s *Server) cellStates(c echo.Context) error {
	var req struct {
		Partition string            `json:"partition"`
		Session   string            `json:"session"`
		Sources   map[string]string `json:"sources"`
		Env       string            `json:"env"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	id := c.Param("id")
	owner, err := s.draftEnv(c, req.Env)
	if err != nil {
		return err
	}
	cells, err := s.sessions.CellStates(c.Request().Context(), req.Session, id, req.Partition, owner, req.Sources)
	if err != nil {
		var probs project.Problems
		var nf *engine.NotFoundError
		if errors.As(err, &probs) || errors.As(err, &nf) {
			return err
		}
		if c.Request().Context().Err() == nil {
			return badRequest("cell states of %s for %q: %s", id, req.Partition, err.Error())
		}
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"pipeline": id, "partition": req.Partition, "cells": cells})
}
