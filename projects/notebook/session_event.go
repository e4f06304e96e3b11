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
	Log    *LogLine
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
	Run      *RunError
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
	re := runErrorOf(e)
	return Event{Kind: EventError, ID: id, Error: &Failure{Code: CodeRun, Message: e.Message, Run: re, Duration: &d}}
}

// ErrorKind classifies a failed execution, with the kernel's names: compile,
// unsupported, refused, error, panic, check, output, timeout, memory, crash,
// interrupted.
type ErrorKind string

// Error kinds, as the kernel names them.
const (
	ErrCompile     = ErrorKind(protocol.ErrCompile)     // parse, type or contract error before running
	ErrUnsupported = ErrorKind(protocol.ErrUnsupported) // valid Go the interpreter cannot run faithfully
	ErrRefused     = ErrorKind(protocol.ErrRefused)     // a restricted import without the project's opt-in
	ErrRuntime     = ErrorKind(protocol.ErrRuntime)     // the block returned an error
	ErrPanic       = ErrorKind(protocol.ErrPanic)       // the block panicked (or called os.Exit)
	ErrCheck       = ErrorKind(protocol.ErrCheck)       // Check returned an error
	ErrOutput      = ErrorKind(protocol.ErrOutput)      // the returned table is invalid
	ErrTimeout     = ErrorKind(protocol.ErrTimeout)
	ErrMemory      = ErrorKind(protocol.ErrMemory)
	ErrCrash       = ErrorKind(protocol.ErrCrash) // the kernel process died
	ErrInterrupted = ErrorKind(protocol.ErrInterrupted)
)

// Diagnostic is one problem at a position of the cell's file.
type Diagnostic struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// RunError says why an execution failed and, when known, where. It is the
// kernel's error as the session's clients see it: the web layer speaks
// these types, not the kernel protocol's, so the protocol can change
// without the websocket changing.
type RunError struct {
	Kind        ErrorKind
	Message     string
	File        string
	Line        int
	Column      int
	Diagnostics []Diagnostic
}

// LogLine is a ctx.Log line of the running block.
type LogLine struct {
	Level string
	Msg   string
	Time  time.Time
}

func runErrorOf(e *protocol.RunError) *RunError {
	re := &RunError{Kind: ErrorKind(e.Kind), Message: e.Message, File: e.File, Line: e.Line, Column: e.Column}
	for _, d := range e.Diagnostics {
		re.Diagnostics = append(re.Diagnostics, Diagnostic(d))
	}
	return re
}
