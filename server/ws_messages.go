package server

import (
	"time"

	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/triggers/launcher"
)

// MessageType names a websocket message. Every message is one JSON object
// {"type": ..., "id": ..., ...}; a reply echoes the id of the request it
// answers, so a client can correlate without ordering assumptions.
type MessageType string

// Client to server.
const (
	MsgHello       MessageType = "hello"       // {session}: attach to (or create) an editor session; answered by status
	MsgExecute     MessageType = "execute"     // {pipeline, block, source, partition, item?, engine?}: run unsaved editor text
	MsgInterrupt   MessageType = "interrupt"   // {exec_id?}: stop the session's running execution
	MsgRestart     MessageType = "restart"     // kill the session's kernel and start a fresh one
	MsgSubscribe   MessageType = "subscribe"   // {topic}: engine events: backfill:<id>, run:<id>, pipeline:<id>, all
	MsgUnsubscribe MessageType = "unsubscribe" // {topic}
	MsgPing        MessageType = "ping"
	MsgTriggers    MessageType = "triggers" // {action: list|pause|resume|preview, pipeline, trigger, from, to}: answered by triggers
)

// Server to client.
const (
	MsgStatus       MessageType = "status"       // the session's state: busy or idle
	MsgStdout       MessageType = "stdout"       // a chunk of the running block's stdout or stderr
	MsgLog          MessageType = "log"          // a ctx.Log line of the running block
	MsgResult       MessageType = "result"       // an execution succeeded: preview of its output
	MsgError        MessageType = "error"        // an execution failed, or a request was refused
	MsgEvent        MessageType = "event"        // an engine notice for a subscribed topic
	MsgSubscribed   MessageType = "subscribed"   // a subscribe took effect
	MsgUnsubscribed MessageType = "unsubscribed" // an unsubscribe took effect
	MsgPong         MessageType = "pong"
	MsgProject      MessageType = "project" // files: project files changed on disk; the project was reloaded
)

// Session states.
const (
	StateIdle = notebook.StateIdle
	StateBusy = notebook.StateBusy
)

// Error codes of websocket errors. A failed execution is code "run" and
// carries the kernel's RunError fields (kind, file, line, column,
// diagnostics) as they are.
const (
	WSBadMessage   = "bad_message"           // not JSON, or a field of the wrong type
	WSUnknownType  = "unknown_type"          // a type this server does not know
	WSInvalid      = notebook.CodeInvalid    // a well-formed request that cannot be done (unknown pipeline, bad partition, ...)
	WSBusy         = notebook.CodeBusy       // the session is running another execution
	WSNotRunning   = notebook.CodeNotRunning // interrupt with nothing running
	WSNoSession    = notebook.CodeNoSession  // too many sessions, or the session was closed
	WSRun          = notebook.CodeRun        // the block failed: see kind
	WSKernel       = notebook.CodeKernel     // the session's kernel could not be started
	WSSessionMoved = notebook.CodeMoved      // another connection said hello with this session
)

// ClientMessage is any message a client sends; fields unused by a type are
// left empty.
type ClientMessage struct {
	Type      MessageType `json:"type"`
	ID        string      `json:"id,omitempty"`
	Session   string      `json:"session,omitempty"`
	Pipeline  string      `json:"pipeline,omitempty"`
	Block     string      `json:"block,omitempty"`
	Source    string      `json:"source,omitempty"`
	Partition string      `json:"partition,omitempty"`
	Item      string      `json:"item,omitempty"` // execute: the dynamic item a block under a dynamic parent runs as
	// Engine is "compiled" on an execute that takes a failure's offer
	// (error.offer): the cell runs on a compiled worker.
	Engine string `json:"engine,omitempty"`
	// Env names the environment an execute reads its upstreams in (its
	// versions first, prod's elsewhere); empty or "prod": prod.
	Env    string `json:"env,omitempty"`
	ExecID string `json:"exec_id,omitempty"`
	Topic  string `json:"topic,omitempty"`
	// triggers: action list (pipeline optional), pause, resume or preview
	// (pipeline and trigger; preview also from and to).
	Action  string `json:"action,omitempty"`
	Trigger string `json:"trigger,omitempty"`
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
}

// ErrorBody is the "error" field of an error message: a code for requests
// the server refused, or code "run" with the kernel's RunError fields for a
// block that failed.
type ErrorBody struct {
	Code        string                `json:"code"`
	Message     string                `json:"message"`
	Kind        notebook.ErrorKind    `json:"kind,omitempty"`
	File        string                `json:"file,omitempty"`
	Line        int                   `json:"line,omitempty"`
	Column      int                   `json:"column,omitempty"`
	Diagnostics []notebook.Diagnostic `json:"diagnostics,omitempty"`
	// Offer is "compiled" when the cell may run compiled where the
	// interpreter failed (a fault midway, a timeout): the client offers it
	// as one click, an execute with engine "compiled".
	Offer string `json:"offer,omitempty"`
}

// Message is any message the server sends. Constructors below fill the
// fields of each type; the JSON omits the others.
type Message struct {
	Type MessageType `json:"type"`
	ID   string      `json:"id,omitempty"`

	// status
	Session   string `json:"session,omitempty"`
	State     string `json:"state,omitempty"`
	Pipeline  string `json:"pipeline,omitempty"`
	Block     string `json:"block,omitempty"`
	Partition string `json:"partition,omitempty"`
	ExecID    string `json:"exec_id,omitempty"`
	Restarted bool   `json:"restarted,omitempty"` // the session's kernel was replaced

	// stdout
	Stream string `json:"stream,omitempty"` // stdout or stderr
	Data   string `json:"data,omitempty"`

	// log
	Level string     `json:"level,omitempty"`
	Msg   string     `json:"msg,omitempty"`
	Time  *time.Time `json:"time,omitempty"`

	// result
	Preview    *tableio.JSONTable `json:"preview,omitempty"`
	DurationMS *float64           `json:"duration_ms,omitempty"`
	Entry      string             `json:"entry,omitempty"`
	Stdout     string             `json:"stdout,omitempty"` // the captured stdout, when streaming dropped some
	// Inputs says where each upstream came from: the session's draft or
	// published versions.
	Inputs []engine.InputOrigin `json:"inputs,omitempty"`
	Item   string               `json:"item,omitempty"` // the dynamic item the cell ran as
	// Engine is set when the cell ran compiled because the interpreter
	// cannot run it: "compiled: range over a function" (result and error).
	Engine string `json:"engine,omitempty"`

	// error
	Error *ErrorBody `json:"error,omitempty"`

	// project
	Files []string `json:"files,omitempty"`

	// event, subscribed, unsubscribed
	Topic  string         `json:"topic,omitempty"`
	Notice *engine.Notice `json:"notice,omitempty"`

	// triggers (the answer to a triggers request)
	Triggers []launcher.Status `json:"triggers,omitempty"`
	Ticks    []launcher.Tick   `json:"ticks,omitempty"`
	// Truncated: the preview's span holds more ticks than Ticks; NextFrom
	// is the first one left out.
	Truncated bool       `json:"truncated,omitempty"`
	NextFrom  *time.Time `json:"next_from,omitempty"`
}

// StdoutMessage is a chunk of output of execution id.
func StdoutMessage(id, stream, data string) Message {
	return Message{Type: MsgStdout, ID: id, Stream: stream, Data: data}
}

// LogMessage is a ctx.Log line of execution id.
func LogMessage(id string, l notebook.LogLine) Message {
	t := l.Time
	return Message{Type: MsgLog, ID: id, Level: l.Level, Msg: l.Msg, Time: &t}
}

// ResultMessage ends a successful execution.
func ResultMessage(id string, preview tableio.JSONTable, d time.Duration, entry string) Message {
	ms := float64(d.Microseconds()) / 1000
	return Message{Type: MsgResult, ID: id, Preview: &preview, DurationMS: &ms, Entry: entry}
}

// RunErrorMessage ends a failed execution with the kernel's error as is.
func RunErrorMessage(id string, e *notebook.RunError, d time.Duration) Message {
	ms := float64(d.Microseconds()) / 1000
	return Message{Type: MsgError, ID: id, DurationMS: &ms, Error: &ErrorBody{Code: WSRun, Message: e.Message, Kind: e.Kind,
		File: e.File, Line: e.Line, Column: e.Column, Diagnostics: e.Diagnostics}}
}

// ErrorMessage refuses a request.
func ErrorMessage(id, code, message string) Message {
	return Message{Type: MsgError, ID: id, Error: &ErrorBody{Code: code, Message: message}}
}

// EventMessage forwards an engine notice to a subscriber of topic.
func EventMessage(topic string, n engine.Notice) Message {
	return Message{Type: MsgEvent, Topic: topic, Notice: &n}
}

// SubscribedMessage acknowledges a subscribe (or, with MsgUnsubscribed, an unsubscribe).
func SubscribedMessage(t MessageType, id, topic string) Message {
	return Message{Type: t, ID: id, Topic: topic}
}

// PongMessage answers a ping.
func PongMessage(id string) Message { return Message{Type: MsgPong, ID: id} }

// ProjectMessage tells every page which project files changed on disk.
func ProjectMessage(files []string) Message { return Message{Type: MsgProject, Files: files} }
