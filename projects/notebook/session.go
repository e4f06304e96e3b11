package notebook

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/redact"
	"github.com/stratahq/strata/kernel/supervisor"
)

// Session is one notebook session: one kernel process, one execution at a
// time, and the drafts of the cells it ran.
type Session struct {
	id     string
	m      *Manager
	anon   bool
	drafts *draftStore

	mu       sync.Mutex
	client   Client
	lastSeen time.Time // when it lost its client or finished an execution
	exec     *execution
	missed   *Event // the final event of an execution that ended while detached
	closed   bool
	outputs  map[[2]string]CellOutput // each cell's last output, by pipeline and block

	kmu    sync.Mutex // held while the kernel is started or swapped
	kernel *supervisor.Kernel
	// kcommand starts the session's project kernel, which carries the
	// third-party packages kimports (session_modules.go); nil: the plain
	// kernel of the configuration.
	kcommand []string
	kimports []string
}

// ID is the session's id.
func (s *Session) ID() string { return s.id }

// Drafts lists the session's drafts of a pipeline's cells.
func (s *Session) Drafts(pipeline, env string) []DraftInfo { return s.drafts.list(pipeline, env) }

// Exec asks a session to run a cell's text.
type Exec struct {
	ID        string // chosen by the client; one is made up when empty
	Pipeline  string
	Block     string
	Source    string
	Partition string // the latest complete partition when empty
	// Item names the dynamic parent's row a block under a dynamic parent
	// runs as (engine.DynamicItems lists them); empty: the first row.
	Item string
	// Engine is EngineCompiled to run the cell on a compiled worker (the
	// "run compiled" a failure offers); empty: the interpreter, unless
	// its checks before running route the cell to compiled.
	Engine string
	// Env is the pin owner of the environment whose versions the cell's
	// upstreams are read from first (projects/envs); "" reads prod's.
	Env string
}

// EngineCompiled asks Execute to run a cell compiled.
const EngineCompiled = "compiled"

// execution is the session's running execution.
type execution struct {
	id, pipeline, block, partition string
	item                           string
	engine                         string
	env                            string // pin owner whose versions reads prefer
	cancel                         context.CancelFunc
	byRestart                      atomic.Bool // the kernel was killed by a restart request
}

func (s *Session) statusLocked() Status {
	st := Status{Session: s.id, State: StateIdle}
	if e := s.exec; e != nil {
		st.State, st.Pipeline, st.Block, st.Partition, st.ExecID = StateBusy, e.pipeline, e.block, e.partition, e.id
	}
	return st
}

func (s *Session) currentClient() Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

func (s *Session) send(ev Event) {
	if c := s.currentClient(); c != nil {
		c.Send(ev)
	}
}

// finish delivers an execution's last event, or keeps it for the next
// Attach when nobody is attached.
func (s *Session) finish(ev Event) {
	s.mu.Lock()
	c := s.client
	if c == nil {
		s.missed = &ev
	}
	s.mu.Unlock()
	if c != nil {
		c.Send(ev)
	}
}

// Execute starts an execution unless one is running: a second request is
// refused with CodeBusy at once. Queueing would let a flood of Ctrl+Enter
// pile up work nobody waits for. The client hears a busy status, streamed
// output, the result or error, then an idle status.
func (s *Session) Execute(x Exec) {
	id := x.ID
	if id == "" {
		id = fmt.Sprintf("exec-%d", s.m.seq.Add(1))
	}
	if x.Pipeline == "" || x.Block == "" {
		s.send(refused(id, CodeInvalid, "execute needs pipeline and block (and source; partition defaults to the latest)"))
		return
	}
	if x.Engine != "" && x.Engine != EngineCompiled {
		s.send(refused(id, CodeInvalid, fmt.Sprintf("execute: engine %q is not known; want %q or none (the interpreter)", x.Engine, EngineCompiled)))
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.send(refused(id, CodeNoSession, "the session is closed"))
		return
	}
	if e := s.exec; e != nil {
		s.mu.Unlock()
		s.m.cfg.OnExec("busy")
		s.send(refused(id, CodeBusy, fmt.Sprintf("busy: %s of %s is running (exec %s); wait for its result or interrupt it", e.block, e.pipeline, e.id)))
		return
	}
	ctx, cancel := context.WithCancel(s.m.ctx)
	e := &execution{id: id, pipeline: x.Pipeline, block: x.Block, partition: x.Partition, item: x.Item, engine: x.Engine, env: x.Env, cancel: cancel}
	s.exec = e
	st := s.statusLocked()
	s.mu.Unlock()
	s.send(statusEvent(id, st))
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		defer cancel()
		final, restarted := s.run(ctx, e, x.Source)
		outcome := "ok"
		if final.Kind == EventError {
			outcome = "error"
		}
		s.m.cfg.OnExec(outcome)
		s.keepOutput(e, final, time.Now())
		s.mu.Lock()
		s.exec = nil
		s.lastSeen = time.Now()
		st := s.statusLocked()
		s.mu.Unlock()
		st.Restarted = restarted
		s.finish(final)
		s.send(statusEvent(id, st))
	}()
}

// ensureKernel returns the session's live kernel, starting one if needed.
func (s *Session) ensureKernel(ctx context.Context) (*supervisor.Kernel, error) {
	s.kmu.Lock()
	defer s.kmu.Unlock()
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, errors.New("the session is closed")
	}
	if s.kernel != nil && s.kernel.Alive() {
		return s.kernel, nil
	}
	if old := s.kernel; old != nil {
		s.kernel = nil
		go old.Close()
	}
	cfg := s.m.cfg.Kernel
	if s.kcommand != nil {
		cfg.Command = s.kcommand
	}
	k, err := supervisor.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s.kernel = k
	return k, nil
}

// replaceKernel drops a dead kernel and warms a new one in the background,
// so the error reaches the user now and the next run finds a kernel ready.
func (s *Session) replaceKernel(dead *supervisor.Kernel) bool {
	s.kmu.Lock()
	if s.kernel != dead {
		s.kmu.Unlock()
		return false // restart already swapped it
	}
	s.kernel = nil
	s.kmu.Unlock()
	go dead.Close()
	s.prewarm()
	return true
}

// prewarm starts the session's kernel in the background.
func (s *Session) prewarm() {
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		if _, err := s.ensureKernel(s.m.ctx); err != nil && s.m.ctx.Err() == nil {
			s.m.cfg.Logger.Warn("start editor kernel", "session", s.id, "err", err)
		}
	}()
}

// Interrupt cancels the running execution (execID, when set, must name
// it); the kernel gets an interrupt and, if the block ignores it past the
// grace period, is killed. The execution then ends with kind interrupted.
func (s *Session) Interrupt(reqID, execID string) {
	s.mu.Lock()
	e := s.exec
	s.mu.Unlock()
	if e == nil || (execID != "" && execID != e.id) {
		s.send(refused(reqID, CodeNotRunning, "no such execution is running"))
		return
	}
	e.cancel()
}

// Restart kills the kernel (ending a running execution) and starts a new
// one, then answers reqID with the session's status, Restarted set. The
// drafts stay: they are data the session holds, not kernel state.
func (s *Session) Restart(reqID string) {
	s.mu.Lock()
	e := s.exec
	s.mu.Unlock()
	if e != nil {
		// Cancel too: an execution that has not reached its kernel yet must
		// not pick up the fresh one and keep running.
		e.byRestart.Store(true)
		e.cancel()
	}
	s.kmu.Lock()
	old := s.kernel
	s.kernel = nil
	s.kmu.Unlock()
	if old != nil {
		old.Kill()
		go old.Close()
	}
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		if _, err := s.ensureKernel(s.m.ctx); err != nil {
			s.send(refused(reqID, CodeKernel, "restart: "+err.Error()))
			return
		}
		s.mu.Lock()
		st := s.statusLocked()
		s.mu.Unlock()
		st.Restarted = true
		s.send(statusEvent(reqID, st))
	}()
}

// close ends the session: cancels its execution and closes its kernel.
func (s *Session) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	e := s.exec
	s.mu.Unlock()
	if e != nil {
		e.cancel()
	}
	s.kmu.Lock()
	k := s.kernel
	s.kernel = nil
	s.kmu.Unlock()
	if k != nil {
		k.Close()
	}
}

// streamHandler streams a running block's output to the session's client
// and answers its ctx.Query and ctx.Product through the engine.
type streamHandler struct {
	s       *Session
	id      string
	host    func(context.Context, *protocol.HostCall) (*sdk.Table, error)
	dropped atomic.Int64
	// streams masks printed output across writes: a secret printed in two
	// pieces is masked as a whole. flush shows what it held at the end.
	streams *redact.Stream
}

func (h *streamHandler) Stream(name, data string) {
	if data = h.streams.Write(name, data); data != "" {
		h.send(name, data)
	}
}

// flush sends what the cell printed last, held in case a secret went on.
func (h *streamHandler) flush() {
	for _, p := range h.streams.Flush() {
		h.send(p.Name, p.Data)
	}
}

func (h *streamHandler) send(name, data string) {
	c := h.s.currentClient()
	if c == nil || !c.TrySend(Event{Kind: EventStdout, ID: h.id, Stream: name, Data: data}) {
		h.dropped.Add(1)
	}
}

func (h *streamHandler) Log(l protocol.LogLine) {
	l.Msg = h.s.m.cfg.Engine.Secrets().Mask(l.Msg)
	c := h.s.currentClient()
	if c == nil || !c.TrySend(Event{Kind: EventLog, ID: h.id, Log: &LogLine{Level: l.Level, Msg: l.Msg, Time: l.Time}}) {
		h.dropped.Add(1)
	}
}

func (h *streamHandler) HostCall(ctx context.Context, call *protocol.HostCall) (*sdk.Table, error) {
	return h.host(ctx, call)
}

var _ supervisor.Handler = (*streamHandler)(nil)
