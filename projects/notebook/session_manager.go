package notebook

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
)

// Defaults of Config.
const (
	DefaultIdle        = 10 * time.Minute
	DefaultMaxSessions = 64
	DefaultMaxDrafts   = 64
	MaxSessionIDLen    = 128
	// PreviewRows is how many rows of an execution's output travel in its
	// Result; the whole output stays in the session as its draft.
	PreviewRows = 100
)

// Config is what the sessions need.
type Config struct {
	Engine      *engine.Engine
	Kernel      supervisor.Config // starts each session's own kernel
	MaxSessions int               // DefaultMaxSessions when 0
	Idle        time.Duration     // reap a session this long without a client; DefaultIdle when 0
	MaxDrafts   int               // drafts kept per session, the oldest dropped first; DefaultMaxDrafts when 0
	Logger      *slog.Logger      // slog.Default() when nil
	// OnExec, when set, counts an execution's outcome: "ok", "error" or "busy".
	OnExec func(outcome string)
}

// Manager keeps the sessions, keyed by the id the browser chose.
type Manager struct {
	cfg Config
	ctx context.Context // ends at Close; executions and kernel starts use it

	mu       sync.Mutex
	sessions map[string]*Session
	closed   bool

	cancel context.CancelFunc
	wg     sync.WaitGroup // reaper, executions, kernel starts
	seq    atomic.Int64
}

// NewManager starts the reaper; Close stops it and every session.
func NewManager(cfg Config) (*Manager, error) {
	if cfg.Engine == nil || len(cfg.Kernel.Command) == 0 {
		return nil, errors.New("notebook: Engine and Kernel.Command are required")
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.Idle <= 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.MaxDrafts <= 0 {
		cfg.MaxDrafts = DefaultMaxDrafts
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.OnExec == nil {
		cfg.OnExec = func(string) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{cfg: cfg, ctx: ctx, cancel: cancel, sessions: map[string]*Session{}}
	m.wg.Add(1)
	go m.reapLoop()
	return m, nil
}

// ValidID says whether id can name a session.
func ValidID(id string) error {
	if id == "" || len(id) > MaxSessionIDLen {
		return fmt.Errorf("session id must be 1 to %d characters", MaxSessionIDLen)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("session id %q: use letters, digits, '-', '_' and '.'", id)
		}
	}
	return nil
}

// Attach connects c to session id, creating it (and warming its kernel)
// when new. c is told the session's status (answering request reqID), then
// the final event of an execution that ended while nobody was attached. A
// client that held the session before is told it lost it (CodeMoved).
func (m *Manager) Attach(id string, c Client, reqID string) (*Session, error) {
	if err := ValidID(id); err != nil {
		return nil, err
	}
	s, created, err := m.get(id, false)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	prev := s.client
	s.client = c
	missed := s.missed
	s.missed = nil
	st := s.statusLocked()
	s.mu.Unlock()
	if prev != nil && prev != c {
		prev.Send(refused("", CodeMoved, "session "+s.id+" was taken over by another connection"))
	}
	c.Send(statusEvent(reqID, st))
	if missed != nil {
		c.Send(*missed)
	}
	if created {
		s.prewarm()
	}
	return s, nil
}

// Anonymous gives a client that never named a session one of its own,
// closed when the client detaches, since nobody can come back to it.
func (m *Manager) Anonymous(c Client) (*Session, error) {
	s, _, err := m.get(fmt.Sprintf("anon-%d-%s", m.seq.Add(1), randomHex(4)), true)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.client = c
	s.mu.Unlock()
	return s, nil
}

func (m *Manager) get(id string, anon bool) (*Session, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, false, errors.New("the server is shutting down")
	}
	if s := m.sessions[id]; s != nil {
		return s, false, nil
	}
	if len(m.sessions) >= m.cfg.MaxSessions {
		return nil, false, fmt.Errorf("too many editor sessions (%d, each with its own kernel): close other tabs or wait for idle ones to be reaped", len(m.sessions))
	}
	s := &Session{id: id, m: m, anon: anon, lastSeen: time.Now(), drafts: newDraftStore(m.cfg.MaxDrafts)}
	m.sessions[id] = s
	return s, true, nil
}

// Find returns session id if it exists (nil otherwise); it creates nothing.
func (m *Manager) Find(id string) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[id]
}

// Detach is called when c goes away or moves to another session. The
// session stays for a reload to find, unless it is anonymous.
func (m *Manager) Detach(s *Session, c Client) {
	s.mu.Lock()
	mine := s.client == c
	if mine {
		s.client = nil
		s.lastSeen = time.Now()
	}
	s.mu.Unlock()
	if mine && s.anon {
		m.remove(s)
	}
}

func (m *Manager) remove(s *Session) {
	m.mu.Lock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	m.mu.Unlock()
	s.close()
}

func (m *Manager) reapLoop() {
	defer m.wg.Done()
	every := min(m.cfg.Idle/4, 30*time.Second)
	t := time.NewTicker(max(every, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case now := <-t.C:
			m.Reap(now)
		}
	}
}

// Reap closes sessions that have had no client and no execution for
// Config.Idle before now.
func (m *Manager) Reap(now time.Time) {
	m.mu.Lock()
	var idle []*Session
	for _, s := range m.sessions {
		s.mu.Lock()
		if s.client == nil && s.exec == nil && now.Sub(s.lastSeen) > m.cfg.Idle {
			idle = append(idle, s)
		}
		s.mu.Unlock()
	}
	m.mu.Unlock()
	for _, s := range idle {
		m.cfg.Logger.Debug("reap idle editor session", "session", s.id)
		m.remove(s)
	}
}

// Close ends every session and waits for their executions to return.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	all := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		all = append(all, s)
	}
	m.sessions = map[string]*Session{}
	m.mu.Unlock()
	m.cancel()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() { defer wg.Done(); s.close() }()
	}
	wg.Wait()
	m.wg.Wait()
}

// Stats counts sessions for /metrics.
func (m *Manager) Stats() (busy, idle, connected int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.sessions {
		s.mu.Lock()
		if s.exec != nil {
			busy++
		} else {
			idle++
		}
		if s.client != nil {
			connected++
		}
		s.mu.Unlock()
	}
	return busy, idle, connected
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
