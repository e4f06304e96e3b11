package notebook

import (
	"time"

	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/engine"
)

// Error codes of refused requests and failed executions. A failed block is
// CodeRun and carries the kernel's RunError as is.
const (
	CodeInvalid    = "invalid"       // a request that cannot be done (unknown pipeline, bad partition, ...)
	CodeBusy       = "busy"          // the session is running another execution
	CodeNotRunning = "not_running"   // interrupt with nothing running
	CodeNoSession  = "no_session"    // too many sessions, or the session was closed
	CodeRun        = "run"           // the block failed: see the RunError's kind
	CodeKernel     = "kernel"        // the session's kernel could not be started
	CodeMoved      = "session_taken" // another client attached to this session
)

// Session states.
const (
	StateIdle = "idle"
	StateBusy = "busy"
)

// EventKind names what an Event carries.
type EventKind string

const (
	EventStatus EventKind = "status" // Status: the session is busy or idle
	EventStdout EventKind = "stdout" // Stream, Data: a chunk of the running block's output
	EventLog    EventKind = "log"    // Log: a ctx.Log line of the running block
	EventResult EventKind = "result" // Result: an execution succeeded
	EventError  EventKind = "error"  // Error: an execution failed or a request was refused
)

// Event is what a session tells its client. ID is the request it answers
// or the execution it belongs to.
type Event struct {
	Kind EventKind
	ID   string

	Status *Status
	Stream string
	Data   string
	Log    *protocol.LogLine
	Result *Result
	Error  *Failure
}

// Status describes a session: its id, whether it runs something and what.
type Status struct {
	Session   string
	State     string
	Pipeline  string
	Block     string
	Partition string
	ExecID    string
	Restarted bool // the session's kernel was replaced
}

// Result is a successful execution: a preview of its output (kept in full
// as the session's draft), how long it took, and where each input came from.
type Result struct {
	Preview   tableio.JSONTable
	Duration  time.Duration
	Entry     string
	Stdout    string // the captured stdout, set when streaming dropped chunks
	Partition string
	Inputs    []engine.InputOrigin
	Item      string // the dynamic item it ran as, if any
	// Engine is empty when the interpreter ran the cell, else why it ran
	// compiled ("compiled: range over a function").
	Engine string
}

// Failure is a refused request (Code other than CodeRun) or a failed
// execution (CodeRun, Run set, Duration measured).
type Failure struct {
	Code     string
	Message  string
	Run      *protocol.RunError
	Duration *time.Duration
	Engine   string // as Result.Engine
	// Offer is OfferCompiled when the cell may run compiled where the
	// interpreter failed (a fault midway, a timeout): the client offers
	// it as one click, an Exec with Engine EngineCompiled.
	Offer string
}

// Client is the connection a session talks through. Send may wait briefly
// (a final result must arrive); TrySend drops when the client is behind
// (streamed stdout must not stall the kernel producing it).
type Client interface {
	Send(Event) bool
	TrySend(Event) bool
}

func statusEvent(id string, st Status) Event { return Event{Kind: EventStatus, ID: id, Status: &st} }

func refused(id, code, msg string) Event {
	return Event{Kind: EventError, ID: id, Error: &Failure{Code: code, Message: msg}}
}

func runFailed(id string, e *protocol.RunError, d time.Duration) Event {
	return Event{Kind: EventError, ID: id, Error: &Failure{Code: CodeRun, Message: e.Message, Run: e, Duration: &d}}
}
