package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// Config says how to start a kernel.
type Config struct {
	// Command starts a kernel process, e.g. {"/path/strata", "kernel"}.
	Command []string
	// MemoryLimit in bytes (default 2 GiB), enforced inside the kernel and,
	// with headroom, from outside by RSS.
	MemoryLimit int64
	// Grace is how long an interrupted or timed-out run may take to stop
	// before the kernel is killed (default 500ms).
	Grace time.Duration
	// Env is added to the few variables a kernel inherits (kernel_env.go).
	Env []string
	// Dir is the kernel's working directory, where a block's relative
	// paths (os.ReadFile("data/seed.csv")) resolve; empty: this process's.
	Dir string
}

// DefaultMemoryLimit is 2 GiB.
const DefaultMemoryLimit = 2 << 30

func (c Config) withDefaults() Config {
	if c.MemoryLimit <= 0 {
		c.MemoryLimit = DefaultMemoryLimit
	}
	if c.Grace <= 0 {
		c.Grace = 500 * time.Millisecond
	}
	return c
}

// Handler receives what a running block streams.
type Handler interface {
	Stream(name, data string)
	Log(line protocol.LogLine)
	// HostCall answers ctx.Query and ctx.Product.
	HostCall(ctx context.Context, call *protocol.HostCall) (*sdk.Table, error)
}

// Kernel is one running kernel process. Exec calls are serialized.
type Kernel struct {
	cfg    Config
	cmd    *exec.Cmd
	w      *protocol.Writer
	stdin  io.Closer
	pid    int
	stderr *tailBuffer   // the tail of what the process wrote to fd 2
	errFD2 *kernelStderr // reads it (kernel_stderr.go)

	execMu sync.Mutex // one exec at a time

	mu      sync.Mutex
	call    *pending
	pings   map[string]chan struct{}
	dead    chan struct{}
	exitErr error
	readErr error // why the stream from the kernel could not be read, if it was not its end
	seq     atomic.Int64
	broken  bool // must be replaced before the next exec

	sharedDir string          // shared table files (protocol.ServeOptions); removed when the process ends
	ready     *protocol.Ready // the kernel's greeting
}

type pending struct {
	id      string
	handler Handler
	done    chan *protocol.Message
	table   *sdk.Table
	// inputs are the exec's tables: the result may use their columns
	// (protocol.Reader.ResolveInputs).
	inputs []*sdk.Table
}

// Start launches a kernel and waits for its ready message.
func Start(ctx context.Context, cfg Config) (*Kernel, error) {
	cfg = cfg.withDefaults()
	if len(cfg.Command) == 0 {
		return nil, errors.New("supervisor: no kernel command")
	}
	args := append(append([]string{}, cfg.Command[1:]...), "--memory-limit", strconv.FormatInt(cfg.MemoryLimit, 10))
	name := cfg.Command[0]
	if cfg.Dir != "" && strings.ContainsRune(name, filepath.Separator) && !filepath.IsAbs(name) {
		// exec resolves a relative command against Dir, not against ours.
		if abs, err := filepath.Abs(name); err == nil {
			name = abs
		}
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = cfg.Dir
	cmd.Env = kernelEnv(cfg.Env)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	k := &Kernel{cfg: cfg, cmd: cmd, stdin: stdin, w: protocol.NewWriter(stdin), stderr: newTailBuffer(16 << 10),
		pings: map[string]chan struct{}{}, dead: make(chan struct{})}
	errFD2, errW, err := newKernelStderr(k.stderr)
	if err != nil {
		return nil, err
	}
	k.errFD2 = errFD2
	cmd.Stderr = errW
	r := protocol.NewReader(stdout)
	r.ResolveInputs(k.callInputs)
	// Large tables go through shared files rather than the pipe, when the
	// kernel agrees (its ready message says so).
	if dir, err := os.MkdirTemp(sharedRoot(), "strata-kernel-"); err == nil {
		k.sharedDir = dir
		cmd.Env = append(cmd.Env, protocol.SharedDirEnv+"="+dir)
		r.AcceptShared(filepath.Join(dir, protocol.SharedFromKernel))
	}
	err = cmd.Start()
	errW.Close() // the child's now
	if err != nil {
		errFD2.close()
		k.removeShared()
		return nil, fmt.Errorf("start kernel %s: %w", cfg.Command[0], err)
	}
	go errFD2.drain()
	k.pid = cmd.Process.Pid
	ready := make(chan error, 1)
	go k.readLoop(r, ready)
	select {
	case err := <-ready:
		if err != nil {
			k.Kill()
			return nil, err
		}
		if k.ready != nil && k.ready.SharedTables && k.sharedDir != "" {
			_ = k.w.ShareTables(filepath.Join(k.sharedDir, protocol.SharedToKernel))
		}
		return k, nil
	case <-ctx.Done():
		k.Kill()
		return nil, fmt.Errorf("kernel did not start: %w", ctx.Err())
	case <-time.After(30 * time.Second):
		k.Kill()
		return nil, errors.New("kernel did not send ready within 30s")
	}
}

// PID is the kernel process's id.
func (k *Kernel) PID() int { return k.pid }

// Alive reports whether the process is running and usable.
func (k *Kernel) Alive() bool {
	select {
	case <-k.dead:
		return false
	default:
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.broken
}

func (k *Kernel) readLoop(r *protocol.Reader, ready chan<- error) {
	first := true
	for {
		m, tables, err := r.Read()
		if err != nil {
			r.CloseShared()
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, os.ErrClosed) {
				// A frame this side cannot read (corrupt, or a table it
				// cannot decode) leaves the stream out of step: end the
				// kernel rather than let the run wait for its timeout.
				k.mu.Lock()
				k.readErr = err
				k.mu.Unlock()
				k.Kill()
			}
			k.exit() // first: describeExit waits for it
			if first {
				msg, ok := startupPanic(k.stderr.String())
				if !ok {
					msg = k.describeExit()
				}
				ready <- fmt.Errorf("kernel exited before ready: %s", msg)
			}
			return
		}
		if first {
			first = false
			if m.Type != protocol.TypeReady {
				ready <- fmt.Errorf("kernel sent %q before ready", m.Type)
				r.CloseShared()
				k.exit()
				return
			}
			k.ready = m.Ready
			ready <- nil
			continue
		}
		k.mu.Lock()
		c := k.call
		var ping chan struct{}
		if m.Type == protocol.TypePong {
			ping = k.pings[m.ID]
			delete(k.pings, m.ID)
		}
		k.mu.Unlock()
		switch m.Type {
		case protocol.TypePong:
			if ping != nil {
				close(ping)
			}
		case protocol.TypeStdout:
			if c != nil && c.id == m.ID && m.Stream != nil {
				c.handler.Stream(m.Stream.Name, m.Stream.Data)
			}
		case protocol.TypeLog:
			if c != nil && c.id == m.ID && m.Log != nil {
				c.handler.Log(*m.Log)
			}
		case protocol.TypeHostCall:
			if c != nil && c.id == m.ID && m.Call != nil {
				go k.answer(c, m.Call)
			}
		case protocol.TypeResult:
			if c != nil && c.id == m.ID {
				k.errFD2.flush() // what the block wrote to fd 2 comes before its result
				if len(tables) == 1 {
					c.table = tables[0]
				}
				c.done <- m
			}
		}
	}
}

// callInputs are the input tables of the running exec id.
func (k *Kernel) callInputs(id string) []*sdk.Table {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.call == nil || k.call.id != id {
		return nil
	}
	return k.call.inputs
}

func (k *Kernel) answer(c *pending, call *protocol.HostCall) {
	t, err := c.handler.HostCall(context.Background(), call)
	reply := &protocol.Message{Type: protocol.TypeHostReply, ID: c.id, Reply: &protocol.HostReply{Seq: call.Seq}}
	if err != nil {
		reply.Reply.Error = err.Error()
		_ = k.w.Write(reply)
		return
	}
	_ = k.w.Write(reply, t)
}

func (k *Kernel) exit() {
	err := k.cmd.Wait()
	// All the process wrote is in the pipe now: the crash report reads
	// the tail. (A process the block started may still hold the pipe; its
	// later writes are not this kernel's.)
	k.errFD2.flush()
	k.errFD2.close()
	k.removeShared()
	k.mu.Lock()
	k.exitErr = err
	k.mu.Unlock()
	close(k.dead)
}

// removeShared unmaps and removes the shared table files.
func (k *Kernel) removeShared() {
	k.w.CloseShared()
	if k.sharedDir != "" {
		_ = os.RemoveAll(k.sharedDir)
	}
}

// sharedRoot is where kernels' shared table files go: memory (/dev/shm)
// when it is there, else the temp dir.
func sharedRoot() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() && st.Mode().Perm()&0o002 != 0 {
		return "/dev/shm"
	}
	return ""
}

// describeExit summarizes how the process ended, with the tail of its stderr.
// A kernel that was marked broken but has not exited yet says so instead of
// waiting for it.
func (k *Kernel) describeExit() string {
	select {
	case <-k.dead:
	default:
		return "it was marked for replacement after a failed run"
	}
	k.mu.Lock()
	err, readErr := k.exitErr, k.readErr
	k.mu.Unlock()
	if readErr != nil {
		return "its messages could not be read (" + readErr.Error() + "), so it was stopped"
	}
	s := "exited"
	if err != nil {
		s = err.Error()
	}
	if tail := strings.TrimSpace(k.stderr.String()); tail != "" {
		s += ": " + firstLines(tail, 6)
	}
	return s
}

// Ping checks that the kernel answers.
func (k *Kernel) Ping(ctx context.Context) (time.Duration, error) {
	id := "ping-" + strconv.FormatInt(k.seq.Add(1), 10)
	ch := make(chan struct{})
	k.mu.Lock()
	k.pings[id] = ch
	k.mu.Unlock()
	start := time.Now()
	if err := k.w.Write(&protocol.Message{Type: protocol.TypePing, ID: id}); err != nil {
		return 0, err
	}
	select {
	case <-ch:
		return time.Since(start), nil
	case <-k.dead:
		return 0, errors.New("kernel is dead")
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Kill ends the process now.
func (k *Kernel) Kill() {
	if k.cmd.Process != nil {
		_ = k.cmd.Process.Kill()
	}
	_ = k.stdin.Close()
}

// Close asks the kernel to exit and kills it if it does not.
func (k *Kernel) Close() {
	_ = k.w.Write(&protocol.Message{Type: protocol.TypeShutdown})
	_ = k.stdin.Close()
	select {
	case <-k.dead:
	case <-time.After(time.Second):
		k.Kill()
	}
}

// tailBuffer keeps the last bytes a kernel wrote to stderr.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func (t *tailBuffer) Reset() {
	t.mu.Lock()
	t.b = t.b[:0]
	t.mu.Unlock()
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
