package audit

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Entry is one action.
type Entry struct {
	ID     string    `json:"id"` // time-ordered and unique across processes
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`          // the user's name; "owner" for the server's own token
	Role   string    `json:"role,omitempty"` // the actor's role when it acted
	Action string    `json:"action"`         // see the Action constants; dotted, filterable by prefix
	// Target is what it acted on: a run or backfill id, a product, a
	// pipeline's trigger, a file, a user.
	Target   string `json:"target,omitempty"`
	Pipeline string `json:"pipeline,omitempty"`
	Detail   string `json:"detail,omitempty"`
	Via      string `json:"via,omitempty"` // api, ws or cli
}

// Actions the server and the CLI record.
const (
	ActionRunLaunch       = "run.launch"
	ActionRunCancel       = "run.cancel"
	ActionBackfillLaunch  = "backfill.launch"
	ActionBackfillRetry   = "backfill.retry"
	ActionBackfillCancel  = "backfill.cancel"
	ActionBackfillPause   = "backfill.pause"
	ActionBackfillResume  = "backfill.resume"
	ActionBackfillResolve = "backfill.resolve"
	ActionPromote         = "backfill.promote"
	ActionDiscard         = "backfill.discard"
	ActionRollback        = "backfill.rollback"
	ActionProductRollback = "product.rollback"
	ActionProductTransfer = "product.transfer"
	ActionTriggerFire     = "trigger.fire"
	ActionTriggerPause    = "trigger.pause"
	ActionTriggerResume   = "trigger.resume"
	ActionFileSave        = "file.save"
	ActionFileDelete      = "file.delete"
	ActionSettingsSave    = "settings.save"
	ActionUserAdd         = "user.add"
	ActionUserRevoke      = "user.revoke"
	ActionEnvCreate       = "env.create"
	ActionEnvPromote      = "env.promote"
	ActionEnvDiscard      = "env.discard"
	ActionEnvRollback     = "env.rollback"
	ActionLogin           = "user.login"  // a browser login through the OpenID provider
	ActionLogout          = "user.logout" // the end of a browser session
)

// File is where a project's audit trail is kept.
func File(projectDir string) string { return filepath.Join(projectDir, ".strata", "audit.jsonl") }

// Log appends to and reads one project's audit trail.
type Log struct {
	path string
	now  func() time.Time
	mu   sync.Mutex // one writer at a time in this process; the file lock covers others
}

// Open returns the audit trail of the project in projectDir; the file is
// created on the first Record.
func Open(projectDir string) *Log { return &Log{path: File(projectDir), now: time.Now} }

// SetClock replaces the wall clock (tests).
func (l *Log) SetClock(now func() time.Time) { l.now = now }

// Record appends e, stamping its id and time, and returns it as written.
func (l *Log) Record(e Entry) (Entry, error) {
	if e.Actor == "" || e.Action == "" {
		return e, errors.New("audit: an entry needs an actor and an action")
	}
	if e.At.IsZero() {
		e.At = l.now().UTC()
	}
	if e.ID == "" {
		var b [4]byte
		_, _ = rand.Read(b[:])
		e.ID = fmt.Sprintf("%013s-%s", strconv.FormatInt(e.At.UnixNano(), 36), hex.EncodeToString(b[:]))
	}
	line, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return e, fmt.Errorf("audit: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return e, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	unlock, err := lock(f)
	if err != nil {
		return e, fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	defer unlock()
	// A line torn by a crash must not swallow this one: start on a new line.
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		var last [1]byte
		if r, err := os.Open(l.path); err == nil {
			if _, err := r.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
				line = append([]byte{'\n'}, line...)
			}
			r.Close()
		}
	}
	if _, err := f.Write(line); err != nil {
		return e, fmt.Errorf("audit: %w", err)
	}
	if err := f.Sync(); err != nil {
		return e, fmt.Errorf("audit: %w", err)
	}
	return e, nil
}

// Filter selects entries. Action matches the action itself or, without a
// dot, every action under it ("backfill" matches "backfill.promote").
type Filter struct {
	Actor  string
	Action string
	Since  time.Time // entries at or after it
	Limit  int       // newest entries kept; default 200, at most 10000
}

// Match reports whether e passes f (Limit aside).
func (f Filter) Match(e Entry) bool {
	if f.Actor != "" && e.Actor != f.Actor {
		return false
	}
	if f.Action != "" && e.Action != f.Action && !strings.HasPrefix(e.Action, f.Action+".") {
		return false
	}
	return f.Since.IsZero() || !e.At.Before(f.Since)
}

// List returns the entries that match f, newest first. A line that does not
// parse (a crash in the middle of a write) is skipped, not fatal.
func (l *Log) List(f Filter) ([]Entry, error) {
	if f.Limit <= 0 {
		f.Limit = 200
	}
	f.Limit = min(f.Limit, 10000)
	file, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return []Entry{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer file.Close()
	// A ring of the newest Limit matches: the file is read once, forward.
	ring := make([]Entry, 0, f.Limit)
	next := 0
	r := bufio.NewReaderSize(file, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var e Entry
			if json.Unmarshal(line, &e) == nil && f.Match(e) {
				if len(ring) < f.Limit {
					ring = append(ring, e)
				} else {
					ring[next] = e
					next = (next + 1) % f.Limit
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
	}
	out := make([]Entry, 0, len(ring))
	for i := len(ring) - 1; i >= 0; i-- {
		out = append(out, ring[(next+i)%len(ring)])
	}
	return out, nil
}

// ParseSince reads RFC 3339 (or a date) or a duration before now.
func ParseSince(v string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("want an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02) or a duration back from now (24h)")
}
