// Package notebook holds the editor's notebook sessions. A session belongs
// to one browser session id and owns one kernel process, its one running
// execution and its drafts: the output of every cell it ran, per partition,
// so a cell below reads what the cell above just produced instead of only
// what was published. The websocket (package server) only adapts a session
// to its connection: it turns client messages into calls here and the
// session's Events into messages.
//
// Sessions are keyed by the id the browser chose, not by the connection: a
// reload that attaches with the same id finds its execution still running,
// or the result it missed while detached. A session without a client for
// Config.Idle is reaped and its kernel closed. A session runs one execution
// at a time and refuses a second with CodeBusy instead of queueing: a flood
// of Ctrl+Enter must not build an unbounded backlog in front of a kernel.
package notebook
