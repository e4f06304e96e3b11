package server

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/server/login"
)

// loginRoutes: the browser login through an OpenID provider. The routes
// exist whether or not login is configured (the role table covers every
// route); without Config.Login they answer 404 with how to turn it on.
func (s *Server) loginRoutes(e *echo.Echo) {
	e.GET(login.LoginPath, s.beginLogin)
	e.GET(login.CallbackPath, s.finishLogin)
	e.POST(login.LogoutPath, s.logout)
}

func (s *Server) loginOff() *APIError {
	return apiErr(http.StatusNotFound, CodeNotFound, "browser login is not configured on this server: add a login: section to strata.yaml (docs/api.md, \"Browser login\"), or use the URL with the token printed by `strata start`")
}

// beginLogin: GET /auth/login?next=/path redirects to the provider.
func (s *Server) beginLogin(c echo.Context) error {
	if s.cfg.Login == nil {
		return s.loginOff()
	}
	u := s.cfg.Login.Begin(c.Response(), c.Request(), c.QueryParam("next"))
	return c.Redirect(http.StatusFound, u)
}

// finishLogin: GET /auth/callback, where the provider sends the browser
// back. A failure is a 4xx naming what was wrong; the log line never holds
// the code or a token.
func (s *Server) finishLogin(c echo.Context) error {
	if s.cfg.Login == nil {
		return s.loginOff()
	}
	p, next, err := s.cfg.Login.Finish(c.Request().Context(), c.Response(), c.Request())
	if err != nil {
		var le *login.Error
		if errors.As(err, &le) {
			s.log.Warn("browser login refused", "code", le.Code, "reason", le.Message)
			return apiErr(le.Status, le.Code, "login failed: %s", le.Message)
		}
		return err
	}
	s.recordAudit(audit.Entry{Actor: p.Name, Role: p.Role.String(), Action: audit.ActionLogin, Via: "browser"})
	s.log.Info("browser login", "user", p.Name, "role", p.Role.String())
	return c.Redirect(http.StatusFound, next)
}

// logout: POST /auth/logout ends the browser's session. Tokens are not
// sessions: a bearer token stays valid until revoked.
func (s *Server) logout(c echo.Context) error {
	if s.cfg.Login == nil {
		return s.loginOff()
	}
	if p, ok := s.cfg.Login.Session(c.Request()); ok {
		s.recordAudit(audit.Entry{Actor: p.Name, Role: p.Role.String(), Action: audit.ActionLogout, Via: "browser"})
	}
	s.cfg.Login.Logout(c.Response(), c.Request())
	return c.NoContent(http.StatusNoContent)
}
