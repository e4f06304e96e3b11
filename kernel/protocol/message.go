package protocol

import (
	"fmt"
	"strconv"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Type names a message.
type Type string

// Messages from the coordinator to the kernel.
const (
	TypeExec      Type = "exec"       // run a block; input tables attached
	TypeInterrupt Type = "interrupt"  // cancel the running exec (its context)
	TypePing      Type = "ping"       // health check
	TypeHostReply Type = "host_reply" // answer to a host_call; a table attached on success
	TypeShutdown  Type = "shutdown"   // exit cleanly
)

// Messages from the kernel to the coordinator.
const (
	TypeReady    Type = "ready"     // the kernel is up; first message
	TypePong     Type = "pong"      // answer to ping
	TypeStdout   Type = "stdout"    // a chunk of the running block's stdout or stderr
	TypeLog      Type = "log"       // a ctx.Log line
	TypeHostCall Type = "host_call" // ctx.Query / ctx.Product, answered by host_reply
	TypeResult   Type = "result"    // the exec finished; the output table attached when there is one
)

// Message is the header of every frame. ID correlates an exec with its
// stream, host calls and result.
type Message struct {
	Type   Type   `json:"type"`
	ID     string `json:"id,omitempty"`
	Tables int    `json:"tables,omitempty"` // number of tables after the header
	// Shared, when set, says the tables are in the shared file rather than
	// after the header (shared_tables.go).
	Shared *SharedRef `json:"shared,omitempty"`
	// Refs says the sender resolves references to this message's input
	// columns in the answer (pass_through.go).
	Refs bool `json:"refs,omitempty"`

	Exec   *ExecRequest `json:"exec,omitempty"`
	Result *Result      `json:"result,omitempty"`
	Stream *Stream      `json:"stream,omitempty"`
	Log    *LogLine     `json:"log,omitempty"`
	Call   *HostCall    `json:"call,omitempty"`
	Reply  *HostReply   `json:"reply,omitempty"`
	Ready  *Ready       `json:"ready,omitempty"`
}

// Ready is the kernel's greeting.
type Ready struct {
	PID      int    `json:"pid"`
	Executor string `json:"executor"` // "yaegi" or "native"
	// SharedTables says the kernel shares large tables through the files
	// of ServeOptions.SharedDir, both ways; the coordinator may then send
	// its own that way.
	SharedTables bool `json:"shared_tables,omitempty"`
}

// ExecRequest asks the kernel to run one block.
type ExecRequest struct {
	Filename string `json:"filename"` // for positions in errors
	Source   string `json:"source"`
	// Files are the other files of the block's package (a block is a Go
	// package; _test.go files are not sent), run together with Source.
	Files     []SourceFile      `json:"files,omitempty"`
	Entry     string            `json:"entry,omitempty"` // Load, Transform or Export; empty: the one the file declares
	Partition PartitionWire     `json:"partition"`
	Item      *sdk.Item         `json:"item,omitempty"`
	Vars      map[string]string `json:"vars,omitempty"`
	Inputs    []string          `json:"inputs,omitempty"` // names of the attached input tables, in parameter order
	Timeout   time.Duration     `json:"timeout,omitempty"`
	Allow     []string          `json:"allow,omitempty"` // opted-in restricted imports: os/exec, unsafe, syscall, plugin
	CheckOnly bool              `json:"check_only,omitempty"`
	// Task names the run this exec belongs to, "<run>/<block>[/<child>]",
	// for executors that route work to other machines; kernels ignore it.
	Task string `json:"task,omitempty"`
	// Snapshot is the content hash of the pipeline snapshot Source was
	// taken from, so a worker's logs and results name the code version.
	Snapshot string `json:"snapshot,omitempty"`
	// State is the block's incremental state as of its latest current
	// version (ctx.State); the result carries it back (state_export.go).
	State map[string]string `json:"state,omitempty"`
	// Export is an Export block's idempotency key (ctx.ExportKey): the
	// kernel asks the coordinator's export ledger before it runs the block
	// and tells it when the block completed (state_export.go).
	Export *sdk.ExportKey `json:"export,omitempty"`
	// Sink, when set, lets an executor that can (a worker with a writer)
	// write the block's output as a Parquet file into the warehouse's data
	// folder itself and answer with Result.Written instead of the table;
	// kernels and the local pool ignore it (output_sink.go).
	Sink *OutputSink `json:"sink,omitempty"`
	// InputFiles are inputs an upstream of the same run wrote into the
	// warehouse's data folder on a worker: the executor reads each from
	// its file instead of from the (empty) table sent in its place, so the
	// rows never travel through the coordinator (output_sink.go).
	InputFiles []InputFile `json:"input_files,omitempty"`
	// SQL says Source is a SQL block's query, for an executor with a DuckDB
	// of its own (a worker): its inputs are the tables and files named in
	// Inputs, its parameters come from Partition. One that cannot run it
	// answers ErrNotHere, and the coordinator runs it in the warehouse.
	SQL bool `json:"sql,omitempty"`
	// InputVersions are inputs of a SQL task that are committed versions
	// of a product in a DuckLake (LakeRead says which lake): the executor
	// reads exactly those versions itself, or answers ErrNotHere.
	InputVersions []InputVersions `json:"input_versions,omitempty"`
	Lake          *LakeRead       `json:"lake,omitempty"`
	// DataS3, when set, says the lake's data path (Sink, InputFiles and
	// Lake's files) is in an S3 bucket, and how to reach it: the worker
	// asks for the key by the secret's name, sealed (output_sink.go).
	DataS3 *S3Access `json:"data_s3,omitempty"`
}

// SourceFile is one more file of a Go block's package.
type SourceFile struct {
	Name   string `json:"name"` // as positions name it, e.g. blocks/orders/helpers.go
	Source string `json:"source"`
}

// PartitionWire carries sdk.Partition; the zone travels by name.
type PartitionWire struct {
	Key      string    `json:"key"`
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	Interval string    `json:"interval,omitempty"`
	Zone     string    `json:"zone,omitempty"`
	// TimeKey and Dims carry a multi-dimensional cell (sdk.Partition's);
	// empty for a time-only pipeline, whose TimeKey is Key.
	TimeKey string    `json:"time_key,omitempty"`
	Dims    []sdk.Dim `json:"dims,omitempty"`
}

// BlockPartition is the sdk.Partition a block receives: pw in its own zone
// (so Start and End print as the pipeline's local midnight).
func BlockPartition(pw PartitionWire) (sdk.Partition, error) {
	loc := time.UTC
	if pw.Zone != "" {
		l, err := loadLocation(pw.Zone)
		if err != nil {
			return sdk.Partition{}, fmt.Errorf("partition zone %q: %w", pw.Zone, err)
		}
		loc = l
	}
	tk := pw.TimeKey
	if tk == "" && len(pw.Dims) == 0 {
		tk = pw.Key
	}
	return sdk.Partition{Key: pw.Key, Start: pw.Start.In(loc), End: pw.End.In(loc), Interval: pw.Interval, Zone: loc, TimeKey: tk, Dims: pw.Dims}, nil
}

// ErrorKind classifies a failed run so callers can react (retry a timeout,
// not a compile error).
type ErrorKind string

// Error kinds.
const (
	ErrCompile     ErrorKind = "compile"     // parse, type or contract error before running
	ErrUnsupported ErrorKind = "unsupported" // valid Go the interpreter cannot run faithfully
	ErrRefused     ErrorKind = "refused"     // a restricted import without the project's opt-in
	ErrRuntime     ErrorKind = "error"       // the block returned an error
	ErrPanic       ErrorKind = "panic"       // the block panicked (or called os.Exit)
	ErrCheck       ErrorKind = "check"       // Check returned an error
	ErrOutput      ErrorKind = "output"      // the returned table is invalid
	ErrTimeout     ErrorKind = "timeout"
	ErrMemory      ErrorKind = "memory"
	ErrCrash       ErrorKind = "crash" // the kernel process died
	ErrInterrupted ErrorKind = "interrupted"
	// ErrNotHere: the executor could not take the task as sent (an
	// upstream's file named in ExecRequest.InputFiles it cannot read, its
	// data folder not mounted there; a SQL task it cannot run): the block
	// did not run there, and the coordinator runs it with the tables, or
	// itself.
	ErrNotHere ErrorKind = "not_here"
)

// Diagnostic is one problem at a position of the block file.
type Diagnostic struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// RunError says why a run failed and, when known, where.
type RunError struct {
	Kind        ErrorKind    `json:"kind"`
	Message     string       `json:"message"`
	File        string       `json:"file,omitempty"`
	Line        int          `json:"line,omitempty"`
	Column      int          `json:"column,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Started is set on an error of kind ErrUnsupported that came once the
	// block's code was running (a fault of the interpreter midway): what
	// ran had its effects, so the block must not be run again by itself
	// on another engine, as a refusal before running is.
	Started bool `json:"started,omitempty"`
}

func (e *RunError) Error() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) + ": " + e.Message
	}
	return e.Message
}

// Result ends an exec.
type Result struct {
	Entry    string        `json:"entry,omitempty"`
	Error    *RunError     `json:"error,omitempty"`
	Stdout   string        `json:"stdout,omitempty"`
	Duration time.Duration `json:"duration"`
	// Restart asks the supervisor for a fresh kernel: the run ended while
	// the block's goroutines may still be running (timeout, interrupt,
	// a panic in a goroutine).
	Restart bool `json:"restart,omitempty"`
	// Worker names the worker machine that ran the block; empty when it
	// ran on the coordinator's own kernel pool without workers.
	Worker string `json:"worker,omitempty"`
	// Engine is how a worker ran the block (interp or compiled) when that
	// may differ from the run's engine: a worker that cannot run the
	// shipped compiled build runs the block's source interpreted.
	Engine string `json:"engine,omitempty"`
	// StateSet says the block set or deleted ctx.State values; State is
	// then every value it left (possibly none).
	StateSet bool              `json:"state_set,omitempty"`
	State    map[string]string `json:"state,omitempty"`
	// ExportSkipped says the export ledger had this export completed
	// already, so the block was not run again.
	ExportSkipped bool `json:"export_skipped,omitempty"`
	// Written, when set, says the output was written where Sink asked
	// (and no table comes back): what the commit needs of it.
	Written *WrittenOutput `json:"written,omitempty"`
}

// Stream is a chunk of output.
type Stream struct {
	Name string `json:"name"` // stdout, stderr, or trace (the interpreter's panic trace; not for display)
	Data string `json:"data"`
}

// LogLine is one ctx.Log call.
type LogLine struct {
	Level string    `json:"level"`
	Msg   string    `json:"msg"`
	Time  time.Time `json:"time"`
}

// HostCall is ctx.Query, ctx.Product or ctx.Secret.
type HostCall struct {
	Seq     int64      `json:"seq"`
	Method  string     `json:"method"` // query, product, secret, export_begin, export_done or export_parquet
	SQL     string     `json:"sql,omitempty"`
	Args    []any      `json:"args,omitempty"`
	Product string     `json:"product,omitempty"`
	Window  sdk.Window `json:"window,omitempty"`
	// Secret names the secret of a "secret" call; the value comes back
	// as a one-cell table (column "value"), on the kernel's own pipe.
	Secret string `json:"secret,omitempty"`
	// SealTo is a worker's one-time X25519 public key for a "secret" call
	// it forwards: the coordinator seals the value to it, so the value
	// never crosses NATS in clear (kernel/remote/secret_seal.go).
	SealTo []byte `json:"seal_to,omitempty"`
	// Export is the key of an export_begin or export_done call.
	Export *sdk.ExportKey `json:"export,omitempty"`
	// Dir is the folder of an export_parquet call.
	Dir string `json:"dir,omitempty"`
}

// HostReply answers a HostCall; the table is attached when Error is empty.
type HostReply struct {
	Seq   int64  `json:"seq"`
	Error string `json:"error,omitempty"`
}
