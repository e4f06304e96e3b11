package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/tableio"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// previewRows is how many rows of an execution's output travel in "result".
const previewRows = 100

// sessionManager keeps the editor sessions, keyed by the id the browser
// chose. A session outlives its websocket: the running state lives here, so
// a reload that says hello with the same id finds its execution still
// running (or its result, if it finished while nobody was connected). A
// session without a connection for SessionIdle is reaped: its kernel closes.
// Connections that never say hello get an anonymous session, closed with
// the connection, since nobody can come back to it.
type sessionManager struct {
	s *Server

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool

	stop chan struct{}
	wg   sync.WaitGroup // reaper, executions, kernel starts
	seq  atomic.Int64
}

func newSessionManager(s *Server) *sessionManager {
	m := &sessionManager{s: s, sessions: map[string]*session{}, stop: make(chan struct{})}
	m.wg.Add(1)
	go m.reapLoop()
	return m
}

// session is one editor session: one kernel process, one execution at a time.
type session struct {
	id   string
	m    *sessionManager
	anon bool

	mu       sync.Mutex
	conn     *wsConn
	lastSeen time.Time // when it lost its connection or finished an execution
	exec     *execution
	missed   *Message // the final message of an execution that ended while detached
	closed   bool

	kmu    sync.Mutex // held while the kernel is started or swapped
	kernel *supervisor.Kernel
}

// execution is the session's running execution.
type execution struct {
	id, pipeline, block, partition string
	cancel                         context.CancelFunc
	byRestart                      atomic.Bool // the kernel was killed by a restart request
}

func validSessionID(id string) error {
	if id == "" || len(id) > maxSessionIDLen {
		return fmt.Errorf("session id must be 1 to %d characters", maxSessionIDLen)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("session id %q: use letters, digits, '-', '_' and '.'", id)
		}
	}
	return nil
}

// hello attaches c to the session named in m, creating it (and warming its
// kernel) when new, and answers with the session's status. A connection that
// held the session before is told it lost it.
func (m *sessionManager) hello(c *wsConn, msg ClientMessage) {
	if err := validSessionID(msg.Session); err != nil {
		c.send(ErrorMessage(msg.ID, WSInvalid, err.Error()))
		return
	}
	if old := c.currentSession(); old != nil && old.id != msg.Session {
		m.detach(old, c)
	}
	s, created, err := m.get(msg.Session, false)
	if err != nil {
		c.send(ErrorMessage(msg.ID, WSNoSession, err.Error()))
		return
	}
	s.mu.Lock()
	prev := s.conn
	s.conn = c
	missed := s.missed
	s.missed = nil
	st := s.statusLocked()
	s.mu.Unlock()
	c.setSession(s)
	if prev != nil && prev != c {
		prev.setSession(nil)
		prev.send(ErrorMessage("", WSSessionMoved, "session "+s.id+" was taken over by another connection"))
	}
	c.send(StatusMessage(msg.ID, st))
	if missed != nil {
		c.send(*missed)
	}
	if created {
		s.prewarm()
	}
}

// forConn returns c's session, creating an anonymous one if it has none.
func (m *sessionManager) forConn(c *wsConn) (*session, error) {
	if s := c.currentSession(); s != nil {
		return s, nil
	}
	s, _, err := m.get(fmt.Sprintf("anon-%d-%s", m.seq.Add(1), randomHex(4)), true)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	c.setSession(s)
	return s, nil
}

func (m *sessionManager) get(id string, anon bool) (*session, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, false, errors.New("the server is shutting down")
	}
	if s := m.sessions[id]; s != nil {
		return s, false, nil
	}
	if len(m.sessions) >= m.s.cfg.MaxSessions {
		return nil, false, fmt.Errorf("too many editor sessions (%d, each with its own kernel): close other tabs or wait for idle ones to be reaped", len(m.sessions))
	}
	s := &session{id: id, m: m, anon: anon, lastSeen: time.Now()}
	m.sessions[id] = s
	return s, true, nil
}

// detach is called when c closes or moves to another session.
func (m *sessionManager) detach(s *session, c *wsConn) {
	s.mu.Lock()
	mine := s.conn == c
	if mine {
		s.conn = nil
		s.lastSeen = time.Now()
	}
	s.mu.Unlock()
	if mine && s.anon {
		m.remove(s)
	}
}

func (m *sessionManager) remove(s *session) {
	m.mu.Lock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	m.mu.Unlock()
	s.close()
}

func (m *sessionManager) reapLoop() {
	defer m.wg.Done()
	every := min(m.s.cfg.SessionIdle/4, 30*time.Second)
	t := time.NewTicker(max(every, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-t.C:
			m.reap(now)
		}
	}
}

// reap closes sessions that have had no connection and no execution for
// SessionIdle.
func (m *sessionManager) reap(now time.Time) {
	m.mu.Lock()
	var idle []*session
	for _, s := range m.sessions {
		s.mu.Lock()
		if s.conn == nil && s.exec == nil && now.Sub(s.lastSeen) > m.s.cfg.SessionIdle {
			idle = append(idle, s)
		}
		s.mu.Unlock()
	}
	m.mu.Unlock()
	for _, s := range idle {
		m.s.log.Debug("reap idle editor session", "session", s.id)
		m.remove(s)
	}
}

// close ends every session and waits for their executions to return.
func (m *sessionManager) close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	all := make([]*session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.sessions = map[string]*session{}
	m.mu.Unlock()
	close(m.stop)
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() { defer wg.Done(); s.close() }()
	}
	wg.Wait()
	m.wg.Wait()
}

// stats counts sessions for /metrics.
func (m *sessionManager) stats() (busy, idle, connected int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.sessions {
		s.mu.Lock()
		if s.exec != nil {
			busy++
		} else {
			idle++
		}
		if s.conn != nil {
			connected++
		}
		s.mu.Unlock()
	}
	return busy, idle, connected
}

func (s *session) statusLocked() sessionStatus {
	st := sessionStatus{session: s.id, state: StateIdle}
	if e := s.exec; e != nil {
		st.state, st.pipeline, st.block, st.partition, st.execID = StateBusy, e.pipeline, e.block, e.partition, e.id
	}
	return st
}

func (s *session) currentConn() *wsConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

func (s *session) send(m Message) {
	if c := s.currentConn(); c != nil {
		c.send(m)
	}
}

// finish delivers an execution's last message, or keeps it for the next
// hello when nobody is connected.
func (s *session) finish(m Message) {
	s.mu.Lock()
	c := s.conn
	if c == nil {
		s.missed = &m
	}
	s.mu.Unlock()
	if c != nil {
		c.send(m)
	}
}

// execute starts an execution unless one is running: a second request gets
// "busy" at once. Queueing would let a flood of Ctrl+Enter pile up work
// nobody waits for.
func (s *session) execute(msg ClientMessage) {
	id := msg.ID
	if id == "" {
		id = fmt.Sprintf("exec-%d", s.m.seq.Add(1))
	}
	if msg.Pipeline == "" || msg.Block == "" {
		s.send(ErrorMessage(id, WSInvalid, "execute needs pipeline and block (and source; partition defaults to the latest)"))
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.send(ErrorMessage(id, WSNoSession, "the session is closed"))
		return
	}
	if e := s.exec; e != nil {
		s.mu.Unlock()
		s.m.s.metrics.exec("busy")
		s.send(ErrorMessage(id, WSBusy, fmt.Sprintf("busy: %s of %s is running (exec %s); wait for its result or interrupt it", e.block, e.pipeline, e.id)))
		return
	}
	ctx, cancel := context.WithCancel(s.m.s.ctx)
	e := &execution{id: id, pipeline: msg.Pipeline, block: msg.Block, partition: msg.Partition, cancel: cancel}
	s.exec = e
	st := s.statusLocked()
	s.mu.Unlock()
	s.send(StatusMessage(id, st))
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		defer cancel()
		final, restarted := s.run(ctx, e, msg.Source)
		s.mu.Lock()
		s.exec = nil
		s.lastSeen = time.Now()
		st := s.statusLocked()
		s.mu.Unlock()
		st.restarted = restarted
		s.finish(final)
		s.send(StatusMessage(id, st))
	}()
}

// run executes the editor's text: a Go block on the session's kernel, a SQL
// block in the warehouse. It returns the final message and whether the
// kernel had to be replaced.
func (s *session) run(ctx context.Context, e *execution, source string) (Message, bool) {
	eng := s.m.s.eng
	start := time.Now()
	pl, err := eng.Pipeline(e.pipeline)
	if err != nil {
		var probs project.Problems
		if errors.As(err, &probs) {
			err = fmt.Errorf("pipeline %s has problems; fix them first: %s", e.pipeline, probs.Error())
		}
		s.m.s.metrics.exec("error")
		return ErrorMessage(e.id, WSInvalid, err.Error()), false
	}
	b := pl.Block(e.block)
	if b == nil {
		s.m.s.metrics.exec("error")
		return ErrorMessage(e.id, WSInvalid, fmt.Sprintf("pipeline %s has no block %q", pl.ID, e.block)), false
	}
	spec, err := engine.SpecOf(b.Partitions)
	if err != nil {
		s.m.s.metrics.exec("error")
		return ErrorMessage(e.id, WSInvalid, err.Error()), false
	}
	key := e.partition
	if key == "" {
		key = spec.Latest(time.Now()).Key
	}
	if b.Kind == project.KindSQL {
		t, err := eng.ExecSQL(ctx, pl.ID, b.ID, source, key)
		if err != nil {
			s.m.s.metrics.exec("error")
			if ctx.Err() != nil {
				return stopped(e, b.File, err, time.Since(start)), false
			}
			return RunErrorMessage(e.id, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: err.Error()}, time.Since(start)), false
		}
		s.m.s.metrics.exec("ok")
		return ResultMessage(e.id, tableio.ToJSON(t, previewRows, spec.Zone), time.Since(start), "sql"), false
	}
	req, inputs, err := eng.PrepareExec(ctx, pl.ID, b.ID, source, key)
	if err != nil {
		s.m.s.metrics.exec("error")
		if ctx.Err() != nil {
			return stopped(e, b.File, err, time.Since(start)), false
		}
		return ErrorMessage(e.id, WSInvalid, err.Error()), false
	}
	k, err := s.ensureKernel(ctx)
	if err != nil {
		s.m.s.metrics.exec("error")
		if ctx.Err() != nil {
			return stopped(e, b.File, err, time.Since(start)), false
		}
		return ErrorMessage(e.id, WSKernel, "start the session's kernel: "+err.Error()), false
	}
	h := &sessionHandler{s: s, id: e.id, eng: eng}
	res, out := k.Exec(ctx, req, inputs, h)
	restarted := false
	if !k.Alive() {
		// The block killed its kernel (memory, a crash, a timeout, an
		// interrupt it ignored): this session alone gets a fresh one.
		restarted = s.replaceKernel(k)
	}
	if res.Error != nil {
		s.m.s.metrics.exec("error")
		re := *res.Error
		if re.File == "" {
			re.File = b.File
		}
		if ctx.Err() != nil && (re.Kind != protocol.ErrInterrupted || e.byRestart.Load()) {
			return stopped(e, re.File, &re, res.Duration), restarted
		}
		return RunErrorMessage(e.id, &re, res.Duration), restarted
	}
	s.m.s.metrics.exec("ok")
	m := ResultMessage(e.id, tableio.ToJSON(out, previewRows, spec.Zone), res.Duration, res.Entry)
	if h.dropped.Load() > 0 {
		m.Stdout = res.Stdout // the stream lost chunks; the captured text is complete
	}
	return m, restarted
}

// stopped is the error of an execution that interrupt, restart or shutdown
// cancelled, whatever step it had reached (a block that returns ctx.Err()
// itself would otherwise look like its own failure).
func stopped(e *execution, file string, cause error, d time.Duration) Message {
	msg := "interrupted"
	if e.byRestart.Load() {
		msg = "stopped: the session's kernel was restarted"
	}
	if cause != nil {
		msg += " (" + cause.Error() + ")"
	}
	return RunErrorMessage(e.id, &protocol.RunError{Kind: protocol.ErrInterrupted, File: file, Message: msg}, d)
}

// ensureKernel returns the session's live kernel, starting one if needed.
func (s *session) ensureKernel(ctx context.Context) (*supervisor.Kernel, error) {
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
	k, err := supervisor.Start(ctx, s.m.s.cfg.Kernel)
	if err != nil {
		return nil, err
	}
	s.kernel = k
	return k, nil
}

// replaceKernel drops a dead kernel and warms a new one in the background,
// so the error reaches the user now and the next run finds a kernel ready.
func (s *session) replaceKernel(dead *supervisor.Kernel) bool {
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
func (s *session) prewarm() {
	s.m.wg.Add(1)
	go func() {
		defer s.m.wg.Done()
		if _, err := s.ensureKernel(s.m.s.ctx); err != nil && s.m.s.ctx.Err() == nil {
			s.m.s.log.Warn("start editor kernel", "session", s.id, "err", err)
		}
	}()
}

// interrupt cancels the running execution; the kernel gets an interrupt
// and, if the block ignores it past the grace period, is killed. The
// execution then ends with an error of kind interrupted.
func (s *session) interrupt(msg ClientMessage) {
	s.mu.Lock()
	e := s.exec
	s.mu.Unlock()
	if e == nil || (msg.ExecID != "" && msg.ExecID != e.id) {
		s.send(ErrorMessage(msg.ID, WSNotRunning, "no such execution is running"))
		return
	}
	e.cancel()
}

// restart kills the kernel (ending a running execution) and starts a new
// one, then answers with the session's status, restarted set.
func (s *session) restart(msg ClientMessage) {
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
		if _, err := s.ensureKernel(s.m.s.ctx); err != nil {
			s.send(ErrorMessage(msg.ID, WSKernel, "restart: "+err.Error()))
			return
		}
		s.mu.Lock()
		st := s.statusLocked()
		s.mu.Unlock()
		st.restarted = true
		s.send(StatusMessage(msg.ID, st))
	}()
}

// close ends the session: cancels its execution and closes its kernel.
func (s *session) close() {
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

// sessionHandler streams a running block's output to the session's client
// and answers its ctx.Query and ctx.Product through the engine.
type sessionHandler struct {
	s       *session
	id      string
	eng     *engine.Engine
	dropped atomic.Int64
}

func (h *sessionHandler) Stream(name, data string) {
	c := h.s.currentConn()
	if c == nil || !c.trySend(StdoutMessage(h.id, name, data)) {
		h.dropped.Add(1)
	}
}

func (h *sessionHandler) Log(l protocol.LogLine) {
	c := h.s.currentConn()
	if c == nil || !c.trySend(LogMessage(h.id, l)) {
		h.dropped.Add(1)
	}
}

func (h *sessionHandler) HostCall(ctx context.Context, call *protocol.HostCall) (*sdk.Table, error) {
	return h.eng.HostCall(ctx, call)
}

var _ supervisor.Handler = (*sessionHandler)(nil)

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
