// Package server is Strata's HTTP face: the echo routes of the JSON API
// under /api/v1 (one file per resource: pipelines, blocks, runs, backfills,
// products), the websocket that carries editor sessions and live engine
// events, token authentication, /healthz and /metrics, and the embedded
// frontend.
//
// It holds no business logic. What a pipeline is, how a run executes, what
// a backfill plans and how a product is read belong to projects/project,
// projects/engine and projects/warehouse; running a block's editor text
// belongs to projects/notebook. The server imports nothing from kernel/:
// cmd/strata assembles the kernel pool and the editor kernels' settings and
// hands them over (Config.Pool, Config.Notebook). Handlers decode a
// request, call those packages, and encode the answer; every failure leaves
// through one error shape, {"error": {"code", "message", "details"}} (errors.go).
//
// # Editor sessions
//
// The notebook sessions (one kernel, one running execution and the drafts of
// the cells run, per browser session id) live in projects/notebook.
// ws_session.go only adapts them to the websocket: hello attaches a
// connection to its session, execute/interrupt/restart call it, and its
// events become status/stdout/log/result/error messages.
//
// # Trust
//
// The server binds to loopback by default and every API call and the
// websocket need the token printed at start (Authorization: Bearer, or the
// cookie set by the first ?token= visit). The static frontend holds no data
// and is served without the token. The websocket also checks Origin, so a
// page from another site cannot drive a kernel through the user's cookie.
// Request bodies and websocket messages are bounded.
//
// # People and roles
//
// A token names a principal: the server's own token is the owner (admin);
// the project's users (server/auth, .strata/users.json) have their own
// tokens and roles. authenticate (before routing) finds the principal;
// authorize (after routing, authorize.go) checks the route against
// auth.Routes and records changing requests in the audit trail
// (projects/audit); the websocket checks each message against
// auth.Messages (ws_roles.go). Handlers only hand the principal's name to
// the engine (RunOptions.Actor, BackfillSpec.Actor), which records it and
// checks nothing.
package server
