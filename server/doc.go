// Package server is Strata's HTTP face: the echo routes of the JSON API
// under /api/v1 (one file per resource: pipelines, blocks, runs, backfills,
// products), the websocket that carries editor sessions and live engine
// events, token authentication, /healthz and /metrics, and the embedded
// frontend.
//
// It holds no business logic. What a pipeline is, how a run executes, what
// a backfill plans and how a product is read belong to projects/project,
// projects/engine and projects/warehouse; running a block's editor text
// belongs to kernel/supervisor. Handlers decode a request, call those
// packages, and encode the answer; every failure leaves through one error
// shape, {"error": {"code", "message", "details"}} (errors.go).
//
// # Editor sessions
//
// An editor session (ws_session.go) owns one kernel process, so two browser
// tabs never wait for each other and a block that kills its kernel harms only
// its own session. Sessions are keyed by an id the browser chooses and keeps
// in sessionStorage, not by the websocket connection: a reload reconnects to
// the same session and sees a block that is still running. A session without
// a connection is reaped, its kernel closed, after SessionIdle. A session
// runs one execution at a time and answers a second with a "busy" error
// instead of queueing: a flood of Ctrl+Enter must not build an unbounded
// backlog in front of a kernel.
//
// # Trust
//
// The server binds to loopback by default and every API call and the
// websocket need the token printed at start (Authorization: Bearer, or the
// cookie set by the first ?token= visit). The static frontend holds no data
// and is served without the token. The websocket also checks Origin, so a
// page from another site cannot drive a kernel through the user's cookie.
// Request bodies and websocket messages are bounded.
package server
