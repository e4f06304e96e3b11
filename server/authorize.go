package server

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/server/auth"
)

// authorize runs after routing, where echo knows the route a request
// matched: it looks the route up in auth.Routes and refuses (403) a caller
// whose role is below it. It is the one place HTTP roles are checked; the
// websocket checks each message in dispatch (wsAllowed). A route missing
// from the table is refused to everyone. Requests that matched no route
// go on to their 404 or 405.
//
// After a handler succeeds, a request on a route of auditedRoutes is
// recorded in the audit trail with the caller's name.
func (s *Server) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Method + " " + c.Path()
		if !s.registered[key] {
			return next(c)
		}
		need, _ := auth.RouteRole(c.Request().Method, c.Path())
		if need != auth.Public {
			p, ok := principal(c)
			if !ok {
				return unauthorized()
			}
			if !p.Role.Allows(need) {
				return forbidden(p, need, key)
			}
		}
		err := next(c)
		if action, ok := auditedRoutes[key]; ok && err == nil && c.Response().Status < 400 {
			s.auditRequest(c, action)
		}
		return err
	}
}

// forbidden is the answer to a caller whose role is too low.
func forbidden(p auth.Principal, need auth.Role, what string) *APIError {
	if need == auth.None {
		return apiErr(http.StatusForbidden, CodeForbidden, "%s has no role in this server's role table: refused to everyone", what)
	}
	e := apiErr(http.StatusForbidden, CodeForbidden, "%s needs the %s role; %s is %s", what, need, p.Name, p.Role)
	e.Details = map[string]string{"need": need.String(), "role": p.Role.String(), "user": p.Name}
	return e
}

// registeredRoutes is every "METHOD path" echo routes, for authorize to
// tell a matched route from a 404.
func registeredRoutes(e *echo.Echo) map[string]bool {
	out := map[string]bool{}
	for _, r := range e.Routes() {
		out[r.Method+" "+r.Path] = true
	}
	return out
}

// auditedRoutes are the routes that change something, with the action the
// audit trail records for them. Every registered non-GET route is either
// here or in readOnlyRoutes (a test checks it).
var auditedRoutes = map[string]string{
	"POST /api/v1/pipelines":                              audit.ActionFileSave,
	"PUT /api/v1/pipelines/:id":                           audit.ActionFileSave,
	"DELETE /api/v1/pipelines/:id":                        audit.ActionFileDelete,
	"POST /api/v1/pipelines/:id/blocks":                   audit.ActionFileSave,
	"PUT /api/v1/pipelines/:id/blocks/:block":             audit.ActionFileSave,
	"DELETE /api/v1/pipelines/:id/blocks/:block":          audit.ActionFileDelete,
	"POST /api/v1/pipelines/:id/rename":                   audit.ActionFileSave,
	"POST /api/v1/pipelines/:id/blocks/:block/move":       audit.ActionFileSave,
	"POST /api/v1/pipelines/:id/blocks/:block/rename":     audit.ActionFileSave,
	"PUT /api/v1/pipelines/:id/blocks/:block/note":        audit.ActionFileSave,
	"PUT /api/v1/pipelines/:id/note":                      audit.ActionFileSave,
	"POST /api/v1/pipelines/:id/triggers":                 audit.ActionFileSave,
	"PUT /api/v1/pipelines/:id/triggers/:trigger":         audit.ActionFileSave,
	"DELETE /api/v1/pipelines/:id/triggers/:trigger":      audit.ActionFileDelete,
	"PUT /api/v1/project/settings":                        audit.ActionSettingsSave,
	"POST /api/v1/pipelines/:id/runs":                     audit.ActionRunLaunch,
	"POST /api/v1/runs/:id/cancel":                        audit.ActionRunCancel,
	"POST /api/v1/backfills":                              audit.ActionBackfillLaunch,
	"POST /api/v1/backfills/:id/retry":                    audit.ActionBackfillRetry,
	"POST /api/v1/backfills/:id/promote-anyway":           audit.ActionBackfillResolve,
	"POST /api/v1/backfills/:id/keep-newer":               audit.ActionBackfillResolve,
	"POST /api/v1/backfills/:id/cancel":                   audit.ActionBackfillCancel,
	"POST /api/v1/backfills/:id/pause":                    audit.ActionBackfillPause,
	"POST /api/v1/backfills/:id/resume":                   audit.ActionBackfillResume,
	"POST /api/v1/backfills/:id/promote":                  audit.ActionPromote,
	"POST /api/v1/backfills/:id/discard":                  audit.ActionDiscard,
	"POST /api/v1/backfills/:id/rollback":                 audit.ActionRollback,
	"POST /api/v1/products/:name/rollback":                audit.ActionProductRollback,
	"POST /api/v1/products/:name/transfer":                audit.ActionProductTransfer,
	"POST /api/v1/pipelines/:id/triggers/:trigger/fire":   audit.ActionTriggerFire,
	"POST /api/v1/pipelines/:id/triggers/:trigger/pause":  audit.ActionTriggerPause,
	"POST /api/v1/pipelines/:id/triggers/:trigger/resume": audit.ActionTriggerResume,
	"POST /api/v1/users":                                  audit.ActionUserAdd,
	"DELETE /api/v1/users/:name":                          audit.ActionUserRevoke,
	"POST /api/v1/envs":                                   audit.ActionEnvCreate,
	"DELETE /api/v1/envs/:name":                           audit.ActionEnvDiscard,
	"POST /api/v1/envs/:name/promote":                     audit.ActionEnvPromote,
	"POST /api/v1/envs/:name/rollback":                    audit.ActionEnvRollback,
	"POST /api/v1/envs/:name/pipelines/:id/runs":          audit.ActionRunLaunch,
	"POST /api/v1/envs/:name/backfills":                   audit.ActionBackfillLaunch,
	"POST /api/v1/envs/:name/backfills/:id/cancel":        audit.ActionBackfillCancel,
	"POST /api/v1/envs/:name/backfills/:id/pause":         audit.ActionBackfillPause,
	"POST /api/v1/envs/:name/backfills/:id/resume":        audit.ActionBackfillResume,
}

// readOnlyRoutes are non-GET routes that change nothing.
var readOnlyRoutes = map[string]bool{
	"HEAD /*":                     true,
	"POST /api/v1/backfills/plan": true, // a dry run
	"POST /api/v1/backfills/:id/promote/plan": true, // a promote's dry run
	"POST /api/v1/pipelines/:id/cells/state":  true,
	"POST /api/v1/project/check":              true,
	"POST /auth/logout":                       true, // ends the caller's own session; audited by its handler
	"POST /api/v1/pipelines/:id/replays":      true, // a replay test publishes nothing
}

// auditTargetKey is where a handler leaves the id of what it created (a
// run or backfill id) for the audit entry; otherwise the target is the
// route's parameters.
const auditTargetKey = "strata.audit.target"

// auditPipelineKey is where a handler names the pipeline a request acted
// on when the route does not (POST /backfills).
const auditPipelineKey = "strata.audit.pipeline"

// auditTarget names what a request acted on, for its audit entry.
func auditTarget(c echo.Context, target string) { c.Set(auditTargetKey, target) }

// auditPipeline names the pipeline a request acted on, for its audit entry.
func auditPipeline(c echo.Context, pipeline string) { c.Set(auditPipelineKey, pipeline) }

// auditRequest records a successful request of an audited route.
func (s *Server) auditRequest(c echo.Context, action string) {
	p, _ := principal(c)
	e := audit.Entry{Actor: p.Name, Role: p.Role.String(), Action: action, Via: "api"}
	names := c.ParamNames()
	vals := c.ParamValues()
	params := map[string]string{}
	for i, n := range names {
		if i < len(vals) {
			params[n] = vals[i]
		}
	}
	if strings.HasPrefix(c.Path(), "/api/v1/pipelines/:id") {
		e.Pipeline = params["id"]
		delete(params, "id")
	}
	if pl, ok := c.Get(auditPipelineKey).(string); ok && pl != "" {
		e.Pipeline = pl
	}
	if t, ok := c.Get(auditTargetKey).(string); ok && t != "" {
		e.Target = t
	} else {
		parts := make([]string, 0, len(params))
		for _, n := range names {
			if v, ok := params[n]; ok {
				parts = append(parts, v)
			}
		}
		e.Target = strings.Join(parts, "/")
		if e.Target == "" {
			e.Target = e.Pipeline
		}
	}
	s.recordAudit(e)
}

// recordAudit appends e; a failure is logged, not returned: the action it
// records has already happened.
func (s *Server) recordAudit(e audit.Entry) {
	if _, err := s.audit.Record(e); err != nil {
		s.log.Error("record audit entry", "action", e.Action, "actor", e.Actor, "err", err)
	}
}

// actorName is the caller's name, handed to the engine to record.
func actorName(c echo.Context) string {
	p, _ := principal(c)
	return p.Name
}
