package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/server/auth"
)

// roleTokens adds one user per role to e's project and returns their tokens.
func roleTokens(t *testing.T, e *env) map[auth.Role]string {
	t.Helper()
	out := map[auth.Role]string{}
	for _, r := range auth.Roles {
		_, tok, err := e.srv.users.Add("u-"+r.String(), r, "test")
		if err != nil {
			t.Fatal(err)
		}
		out[r] = tok
	}
	return out
}

var routeParam = regexp.MustCompile(`:[a-z]+`)

// TestEveryRouteAsEveryRole walks every route echo has registered, as each
// role, and checks that the role table lets exactly the roles at or above a
// route's role through (anything but 403) and refuses the others with 403.
// A route added without an entry in auth.Routes fails here. Parameters are
// names that exist nowhere and bodies are empty objects, so an allowed
// request is refused further in (400, 404) and changes nothing.
func TestEveryRouteAsEveryRole(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	tokens := roleTokens(t, e)
	routes := e.srv.echo.Routes()
	if len(routes) < 60 {
		t.Fatalf("only %d routes registered: the walk would prove little", len(routes))
	}
	seen := map[string]bool{}
	for _, rt := range routes {
		key := rt.Method + " " + rt.Path
		if seen[key] {
			continue
		}
		seen[key] = true
		need, ok := auth.RouteRole(rt.Method, rt.Path)
		if !ok {
			t.Errorf("route %s has no entry in auth.Routes: give it a role", key)
			continue
		}
		path := routeParam.ReplaceAllString(rt.Path, "no-such-thing")
		path = strings.Replace(path, "/*", "/", 1)
		for _, role := range auth.Roles {
			var body any
			if rt.Method != http.MethodGet && rt.Method != http.MethodHead {
				body = map[string]any{}
			}
			resp, data := e.request(rt.Method, path, body, "Authorization", "Bearer "+tokens[role])
			allowed := role.Allows(need)
			switch {
			case allowed && resp.StatusCode == http.StatusForbidden:
				t.Errorf("%s as %s: 403, want it let through (route needs %s): %s", key, role, need, data)
			case !allowed && resp.StatusCode != http.StatusForbidden:
				t.Errorf("%s as %s: %d, want 403 (route needs %s): %s", key, role, resp.StatusCode, need, data)
			case !allowed:
				if ae := apiError(t, data); ae.Code != CodeForbidden || !strings.Contains(ae.Message, need.String()) {
					t.Errorf("%s as %s: %+v, want code forbidden naming the role %s", key, role, ae, need)
				}
			}
		}
	}
	// Stale entries would document roles of routes that do not exist.
	for key := range auth.Routes {
		if !seen[key] {
			t.Errorf("auth.Routes has %s, which is not a registered route", key)
		}
	}
}

// TestServerTokenIsAdmin: the single token of `strata start` keeps working,
// as the admin of a one-person install.
func TestServerTokenIsAdmin(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	var me meView
	e.call("GET", "/api/v1/me", nil, 200, &me)
	if me.Name != auth.Owner || me.Role != auth.Admin {
		t.Fatalf("the server's token is %+v, want owner/admin", me)
	}
	e.call("GET", "/api/v1/users", nil, 200, nil)
}

// TestUsersAPI: an admin adds a user (its token shown once), the token
// works at once with its role, listing never shows a token or hash, and a
// revoked token is refused on its next request.
func TestUsersAPI(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	var added struct {
		User  auth.User `json:"user"`
		Token string    `json:"token"`
	}
	e.call("POST", "/api/v1/users", map[string]string{"name": "ana", "role": "viewer"}, 201, &added)
	if len(added.Token) != 64 || added.User.TokenSHA256 != "" {
		t.Fatalf("add answered %+v", added)
	}
	resp, data := e.request("POST", "/api/v1/users", map[string]string{"name": "ana", "role": "viewer"})
	if resp.StatusCode != 409 {
		t.Fatalf("adding ana twice: %d %s", resp.StatusCode, data)
	}
	resp, data = e.request("POST", "/api/v1/users", map[string]string{"name": "bo", "role": "boss"})
	if resp.StatusCode != 400 || !strings.Contains(apiError(t, data).Message, "want viewer, editor, operator or admin") {
		t.Fatalf("a bad role: %d %s", resp.StatusCode, data)
	}
	as := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }
	resp, data = e.request("GET", "/api/v1/me", nil, as(added.Token)...)
	var me meView
	if resp.StatusCode != 200 || json.Unmarshal(data, &me) != nil || me.Name != "ana" || me.Role != auth.Viewer {
		t.Fatalf("me as ana: %d %s", resp.StatusCode, data)
	}
	if resp, _ := e.request("GET", "/api/v1/users", nil, as(added.Token)...); resp.StatusCode != 403 {
		t.Fatalf("a viewer listed users: %d", resp.StatusCode)
	}
	listed := e.call("GET", "/api/v1/users", nil, 200, nil)
	if strings.Contains(string(listed), added.Token) || strings.Contains(string(listed), "token_sha256") {
		t.Fatalf("the user list shows a token or its hash: %s", listed)
	}
	e.call("DELETE", "/api/v1/users/ana", nil, 200, nil)
	if resp, _ := e.request("GET", "/api/v1/me", nil, as(added.Token)...); resp.StatusCode != 401 {
		t.Fatalf("a revoked token: %d, want 401", resp.StatusCode)
	}
}

// TestWebsocketMessagesByRole: a viewer's connection may subscribe and list
// triggers but not run cells or pause triggers; an operator may pause.
func TestWebsocketMessagesByRole(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	tokens := roleTokens(t, e)
	dial := func(r auth.Role) *wsClient {
		c, resp, err := e.dial(http.Header{"Authorization": {"Bearer " + tokens[r]}})
		if err != nil {
			t.Fatalf("dial as %s: %v (%v)", r, err, resp)
		}
		return c
	}
	viewer := dial(auth.Viewer)
	for _, m := range []ClientMessage{
		{Type: MsgHello, ID: "h", Session: "s1"},
		{Type: MsgExecute, ID: "x", Pipeline: "clv", Block: "raw_orders", Source: "package x"},
		{Type: MsgRestart, ID: "r"},
		{Type: MsgTriggers, ID: "p", Action: "pause", Pipeline: "clv", Trigger: "nightly"},
	} {
		viewer.send(m)
		got, _ := viewer.await("reply to "+m.ID, 10*time.Second, func(r Message) bool { return r.ID == m.ID })
		if got.Type != MsgError || got.ID != m.ID || got.Error.Code != WSForbidden {
			t.Fatalf("%s as viewer: %+v, want a forbidden error", m.Type, got)
		}
	}
	viewer.send(ClientMessage{Type: MsgSubscribe, ID: "s", Topic: "all"})
	if got, _ := viewer.await("s", 10*time.Second, func(r Message) bool { return r.ID == "s" }); got.Type != MsgSubscribed {
		t.Fatalf("subscribe as viewer: %+v", got)
	}
	viewer.send(ClientMessage{Type: MsgTriggers, ID: "l", Action: "list"})
	if got, _ := viewer.await("l", 10*time.Second, func(r Message) bool { return r.ID == "l" }); got.Type != MsgTriggers {
		t.Fatalf("triggers list as viewer: %+v", got)
	}
	op := dial(auth.Operator)
	op.send(ClientMessage{Type: MsgTriggers, ID: "p", Action: "pause", Pipeline: "no-such-pipeline", Trigger: "t"})
	if got, _ := op.await("p", 10*time.Second, func(r Message) bool { return r.ID == "p" }); got.Type == MsgError && got.Error.Code == WSForbidden {
		t.Fatalf("pause as operator was refused: %+v", got)
	}
}

// TestRoleTableDecisions pins the decisions of the role table that matter
// most, so a change to one is deliberate.
func TestRoleTableDecisions(t *testing.T) {
	for _, c := range []struct {
		route string
		want  auth.Role
	}{
		{"GET /api/v1/pipelines/:id", auth.Viewer},
		{"GET /api/v1/products/:name/preview", auth.Viewer},
		{"GET /api/v1/products/:name/diff", auth.Viewer},
		{"PUT /api/v1/pipelines/:id/blocks/:block", auth.Editor},
		{"POST /api/v1/backfills", auth.Operator},
		{"POST /api/v1/backfills/:id/promote", auth.Operator},
		{"POST /api/v1/backfills/:id/discard", auth.Operator},
		{"POST /api/v1/backfills/:id/rollback", auth.Operator},
		{"POST /api/v1/pipelines/:id/triggers/:trigger/pause", auth.Operator},
		{"PUT /api/v1/project/settings", auth.Admin},
		{"POST /api/v1/users", auth.Admin},
	} {
		m, p, _ := strings.Cut(c.route, " ")
		if got, _ := auth.RouteRole(m, p); got != c.want {
			t.Errorf("%s needs %s, want %s", c.route, got, c.want)
		}
	}
}

// TestEveryChangingRouteIsAudited: each registered route that is not a GET
// is either recorded in the audit trail or listed as changing nothing.
func TestEveryChangingRouteIsAudited(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	for _, rt := range e.srv.echo.Routes() {
		key := rt.Method + " " + rt.Path
		if rt.Method == http.MethodGet {
			continue
		}
		_, audited := auditedRoutes[key]
		if audited == readOnlyRoutes[key] {
			t.Errorf("route %s: audited %v, read-only %v; want exactly one", key, audited, readOnlyRoutes[key])
		}
	}
}
