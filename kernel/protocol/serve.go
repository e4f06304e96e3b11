package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Executor runs one block inside a kernel: the yaegi interpreter, or a
// natively compiled worker.
type Executor interface {
	Name() string
	Exec(ctx context.Context, req *ExecRequest, inputs []*sdk.Table, env *Env) (*sdk.Table, *Result)
}

// Env is what a running block reaches outside itself.
type Env struct {
	Stdout io.Writer // streamed to the coordinator and kept for the result
	Stderr io.Writer // streamed as "stderr"
	// Trace carries the interpreter's own panic trace ("12:3: panic: …"):
	// the supervisor keeps it to place a crash, nobody shows it.
	Trace io.Writer
	Log   func(level, msg string) // ctx.Log
	Host  sdk.Host                // ctx.Query and ctx.Product
}

// MaxCapturedOutput bounds the stdout kept in a Result; the stream carries it all.
const MaxCapturedOutput = 1 << 20

// TruncatedNote ends a text kept up to limit bytes of what a block wrote,
// more bytes after it not kept: "… output truncated at 1 MiB: 951469 bytes
// more". Every place that bounds a block's output says so with it, in
// both engines: the cut was silent.
func TruncatedNote(limit int, more int64) string {
	size := strconv.Itoa(limit>>10) + " KiB"
	if limit >= 1<<20 && limit%(1<<20) == 0 {
		size = strconv.Itoa(limit>>20) + " MiB"
	}
	return "\n… output truncated at " + size + ": " + strconv.FormatInt(more, 10) + " bytes more\n"
}

// Serve is the kernel's main loop: it answers pings while a block runs,
// runs one exec at a time, and relays host calls. It returns when the
// coordinator closes the stream or asks for shutdown.
func Serve(r io.Reader, w io.Writer, ex Executor) error {
	return ServeWith(r, w, ex, ServeOptions{})
}

// ServeOptions configure Serve.
type ServeOptions struct {
	// SharedDir is a directory the coordinator made for this kernel
	// (SharedDirEnv): large tables then travel through shared files in it
	// (shared_tables.go) rather than the pipe. Empty: all inline.
	SharedDir string
}

// The shared table files of a kernel, in ServeOptions.SharedDir, and the
// environment variable by which the coordinator names that directory.
const (
	SharedDirEnv     = "STRATA_KERNEL_SHARED_DIR"
	SharedToKernel   = "to-kernel"
	SharedFromKernel = "from-kernel"
)

// ServeWith is Serve with options.
func ServeWith(r io.Reader, w io.Writer, ex Executor, opt ServeOptions) error {
	s := &server{out: NewWriter(w), ex: ex, calls: map[int64]chan hostAnswer{}}
	in := NewReader(r)
	ready := &Ready{PID: os.Getpid(), Executor: ex.Name()}
	if opt.SharedDir != "" && s.out.ShareTables(filepath.Join(opt.SharedDir, SharedFromKernel)) == nil {
		in.AcceptShared(filepath.Join(opt.SharedDir, SharedToKernel))
		ready.SharedTables = true
	}
	if err := s.out.Write(&Message{Type: TypeReady, Ready: ready}); err != nil {
		return err
	}
	for {
		m, tables, err := in.Read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		switch m.Type {
		case TypePing:
			_ = s.out.Write(&Message{Type: TypePong, ID: m.ID})
		case TypeExec:
			s.startExec(m, tables, in.SharedInputs())
		case TypeInterrupt:
			s.mu.Lock()
			if s.cancel != nil && (m.ID == "" || m.ID == s.running) {
				s.cancel()
			}
			s.mu.Unlock()
		case TypeHostReply:
			s.answer(m, tables)
		case TypeShutdown:
			return nil
		default:
			_ = s.out.Write(&Message{Type: TypeResult, ID: m.ID, Result: &Result{Error: &RunError{Kind: ErrCompile, Message: fmt.Sprintf("kernel: unknown message type %q", m.Type)}}})
		}
	}
}

type server struct {
	out *Writer
	ex  Executor

	mu      sync.Mutex
	running string
	cancel  context.CancelFunc
	calls   map[int64]chan hostAnswer
	seq     atomic.Int64
}

type hostAnswer struct {
	table *sdk.Table
	err   error
}

// startExec runs an exec; inputs says where its tables were in the shared
// file (nil: they were not, or the coordinator takes no references).
func (s *server) startExec(m *Message, tables []*sdk.Table, inputs *SharedInputs) {
	s.mu.Lock()
	if s.cancel != nil {
		s.mu.Unlock()
		_ = s.out.Write(&Message{Type: TypeResult, ID: m.ID, Result: &Result{Error: &RunError{Kind: ErrCompile, Message: "kernel is busy with " + s.running}}})
		return
	}
	if m.Exec == nil {
		s.mu.Unlock()
		_ = s.out.Write(&Message{Type: TypeResult, ID: m.ID, Result: &Result{Error: &RunError{Kind: ErrCompile, Message: "exec message without a request"}}})
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	if m.Exec.Timeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), m.Exec.Timeout)
	}
	s.running, s.cancel = m.ID, cancel
	s.mu.Unlock()

	go func() {
		id := m.ID
		stdout := &streamWriter{s: s, id: id, name: "stdout", keep: true}
		env := &Env{
			Stdout: stdout,
			Stderr: &streamWriter{s: s, id: id, name: "stderr"},
			Trace:  &streamWriter{s: s, id: id, name: "trace"},
			Log: func(level, msg string) {
				_ = s.out.Write(&Message{Type: TypeLog, ID: id, Log: &LogLine{Level: level, Msg: msg, Time: time.Now()}})
			},
			Host: &hostClient{s: s, id: id},
		}
		t, res := s.ex.Exec(ctx, m.Exec, tables, env)
		res.Stdout = stdout.kept()
		s.mu.Lock()
		s.running, s.cancel = "", nil
		s.mu.Unlock()
		cancel()
		var ts []*sdk.Table
		if t != nil && res.Error == nil {
			ts = append(ts, t)
		}
		if err := s.out.WriteAnswer(&Message{Type: TypeResult, ID: id, Result: res}, inputs, ts...); err != nil {
			_ = s.out.Write(&Message{Type: TypeResult, ID: id, Result: &Result{Error: &RunError{Kind: ErrOutput, Message: "send output: " + err.Error()}}})
		}
	}()
}

func (s *server) answer(m *Message, tables []*sdk.Table) {
	if m.Reply == nil {
		return
	}
	s.mu.Lock()
	ch := s.calls[m.Reply.Seq]
	delete(s.calls, m.Reply.Seq)
	s.mu.Unlock()
	if ch == nil {
		return
	}
	a := hostAnswer{}
	if m.Reply.Error != "" {
		a.err = errors.New(m.Reply.Error)
	} else if len(tables) == 1 {
		a.table = tables[0]
	} else {
		a.err = errors.New("host reply without a table")
	}
	ch <- a
}

// hostClient sends ctx.Query and ctx.Product to the coordinator.
type hostClient struct {
	s  *server
	id string
}

func (h *hostClient) call(ctx context.Context, c *HostCall) (*sdk.Table, error) {
	c.Seq = h.s.seq.Add(1)
	ch := make(chan hostAnswer, 1)
	h.s.mu.Lock()
	h.s.calls[c.Seq] = ch
	h.s.mu.Unlock()
	if err := h.s.out.Write(&Message{Type: TypeHostCall, ID: h.id, Call: c}); err != nil {
		return nil, err
	}
	select {
	case a := <-ch:
		return a.table, a.err
	case <-ctx.Done():
		h.s.mu.Lock()
		delete(h.s.calls, c.Seq)
		h.s.mu.Unlock()
		return nil, ctx.Err()
	}
}

func (h *hostClient) Query(ctx context.Context, sql string, args ...any) (*sdk.Table, error) {
	return h.call(ctx, &HostCall{Method: "query", SQL: sql, Args: args})
}

func (h *hostClient) Product(ctx context.Context, name string, w sdk.Window) (*sdk.Table, error) {
	return h.call(ctx, &HostCall{Method: "product", Product: name, Window: w})
}

func (h *hostClient) Secret(ctx context.Context, name string) (string, error) {
	t, err := h.call(ctx, &HostCall{Method: "secret", Secret: name})
	if err != nil {
		return "", err
	}
	return SecretValue(t)
}

// SecretTable is how a secret's value travels in a host reply.
func SecretTable(value string) *sdk.Table {
	t := sdk.NewTable(sdk.Field{Name: "value", Type: sdk.TypeString})
	t.Append(value)
	return t
}

// SecretValue reads a SecretTable.
func SecretValue(t *sdk.Table) (string, error) {
	if c := t.Column("value"); c != nil && c.Type == sdk.TypeString && t.Len() == 1 {
		return c.Strings()[0], nil
	}
	return "", errors.New("malformed secret reply")
}

// streamWriter forwards a block's output as it is written.
type streamWriter struct {
	s    *server
	id   string
	name string
	keep bool

	mu      sync.Mutex
	buf     []byte
	dropped int64 // bytes written past MaxCapturedOutput
}

func (w *streamWriter) Write(p []byte) (int, error) {
	if w.keep {
		w.mu.Lock()
		room := max(MaxCapturedOutput-len(w.buf), 0)
		w.buf = append(w.buf, p[:min(room, len(p))]...)
		w.dropped += int64(len(p) - min(room, len(p)))
		w.mu.Unlock()
	}
	if err := w.s.out.Write(&Message{Type: TypeStdout, ID: w.id, Stream: &Stream{Name: w.name, Data: string(p)}}); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *streamWriter) kept() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dropped > 0 {
		return string(w.buf) + TruncatedNote(MaxCapturedOutput, w.dropped)
	}
	return string(w.buf)
}
