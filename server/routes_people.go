package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/server/auth"
)

// People: who is asking (/me), the project's users (admin only), and the
// audit trail of who did what.
func (s *Server) peopleRoutes(g *echo.Group) {
	g.GET("/me", s.getMe)
	g.GET("/audit", s.listAudit)
	g.GET("/users", s.listUsers)
	g.POST("/users", s.addUser)
	g.DELETE("/users/:name", s.revokeUser)
}

// meView is the caller and what its role may do, so the frontend can hide
// the controls it would be refused.
type meView struct {
	Name string    `json:"name"`
	Role auth.Role `json:"role"`
	// Can lists the capabilities of the role: edit (files, cells), launch
	// (runs, backfills, promote, discard, rollback, triggers), admin.
	Can []string `json:"can"`
	// Session: signed in through the OpenID provider (the page offers to
	// log out), not with a token.
	Session bool `json:"session,omitempty"`
}

// getMe: GET /me.
func (s *Server) getMe(c echo.Context) error {
	p, _ := principal(c)
	can := []string{"view"}
	if p.Role.Allows(auth.Editor) {
		can = append(can, "edit")
	}
	if p.Role.Allows(auth.Operator) {
		can = append(can, "launch")
	}
	if p.Role.Allows(auth.Admin) {
		can = append(can, "admin")
	}
	fromSession, _ := c.Get(sessionKey).(bool)
	return c.JSON(http.StatusOK, meView{Name: p.Name, Role: p.Role, Can: can, Session: fromSession})
}

// listAudit: GET /audit?actor=&action=&since=&limit=, newest first. since
// is RFC 3339 or a duration back from now ("24h").
func (s *Server) listAudit(c echo.Context) error {
	f := audit.Filter{Actor: c.QueryParam("actor"), Action: c.QueryParam("action")}
	if v := c.QueryParam("since"); v != "" {
		t, err := audit.ParseSince(v, time.Now())
		if err != nil {
			return badRequest("since=%q: %s", v, err)
		}
		f.Since = t
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return badRequest("limit=%q: want a number from 1 to 10000", v)
		}
		f.Limit = n
	}
	entries, err := s.audit.List(f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"entries": entries})
}

// listUsers: GET /users (admin).
func (s *Server) listUsers(c echo.Context) error {
	users, err := s.users.List()
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"users": users})
}

// addUser: POST /users {"name", "role"} (admin). The answer carries the
// user's token, the only time it is ever shown.
func (s *Server) addUser(c echo.Context) error {
	var req struct {
		Name string `json:"name"`
		Role string `json:"role"`
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	role, err := auth.ParseRole(req.Role)
	if err != nil {
		return badRequest("%s", err)
	}
	if err := auth.CheckName(req.Name); err != nil {
		return badRequest("%s", err)
	}
	p, _ := principal(c)
	u, tok, err := s.users.Add(req.Name, role, p.Name)
	if errors.Is(err, auth.ErrExists) {
		return conflict("%s", err)
	}
	if err != nil {
		return err
	}
	auditTarget(c, u.Name+" ("+u.Role.String()+")")
	return c.JSON(http.StatusCreated, map[string]any{"user": u, "token": tok,
		"note": "the token is shown once: Strata keeps only its hash"})
}

// revokeUser: DELETE /users/:name (admin).
func (s *Server) revokeUser(c echo.Context) error {
	p, _ := principal(c)
	u, err := s.users.Revoke(c.Param("name"), p.Name)
	if errors.Is(err, auth.ErrNotFound) {
		return notFound("%s", err)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"user": u})
}
