package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// State is the state of a run, a block run or a backfill.
type State string

// States. Queued and running are intents, paused holds a backfill; the
// others are final.
const (
	StateQueued    State = "queued"
	StateRunning   State = "running"
	StateSucceeded State = "succeeded"
	StateFailed    State = "failed"
	StateSkipped   State = "skipped"
	StateCancelled State = "cancelled"
	StatePaused    State = "paused"
	// StateConflict ends a partition run whose publish found newer work
	// current (its versions are kept, not current); StateNeedsAttention
	// ends a backfill with conflicts to resolve (promote anyway or keep
	// the newer versions).
	StateConflict       State = "conflict"
	StateNeedsAttention State = "needs_attention"
	// A backfill published for review ends here once every partition is
	// staged; promote, discard and rollback move it on (backfill_promote.go).
	StateReview     State = "review"
	StateRolledBack State = "rolled_back"
)

// Final reports whether s ends a run.
func (s State) Final() bool {
	switch s {
	case StateSucceeded, StateFailed, StateSkipped, StateCancelled, StateConflict, StateNeedsAttention:
		return true
	}
	return false
}

// Event is one state change. Block is empty for a run-level event; Child is
// the dynamic child key, empty for a block that runs once.
type Event struct {
	Seq        int64     `json:"seq"`
	At         time.Time `json:"at"`
	RunID      string    `json:"run_id"`
	BackfillID string    `json:"backfill_id,omitempty"`
	Pipeline   string    `json:"pipeline"`
	Partition  string    `json:"partition"`
	Block      string    `json:"block,omitempty"`
	Child      string    `json:"child,omitempty"`
	State      State     `json:"state"`
	Attempt    int       `json:"attempt,omitempty"`
	Rows       int64     `json:"rows,omitempty"`
	DurationMS float64   `json:"duration_ms,omitempty"`
	Error      string    `json:"error,omitempty"`
	ErrorLine  int       `json:"error_line,omitempty"`
	Log        string    `json:"log,omitempty"`
	// Engine is how a run's Go blocks ran (interp or compiled), on the
	// run's own events.
	Engine string `json:"engine,omitempty"`
	// Worker is the worker machine that ran the block (empty: this
	// machine's own kernels without workers, or a SQL block).
	Worker string `json:"worker,omitempty"`
	// Output is a dynamic child's output table (the kernel protocol's
	// encoding), kept so that a retried run re-runs only the children that
	// failed.
	Output []byte `json:"-"`
	// Origin is what launched the run (an encoded Origin), on its first event only.
	Origin string `json:"-"`
	// Snapshot is the pipeline version that computed a dynamic child's
	// Output: a retry reuses the output only under that same version.
	Snapshot string `json:"-"`
}

const stateSchema = `
CREATE SCHEMA IF NOT EXISTS _strata;
CREATE TABLE IF NOT EXISTS _strata.run_events (
	seq BIGINT, event_at TIMESTAMPTZ, run_id VARCHAR, backfill_id VARCHAR, pipeline VARCHAR,
	partition_key VARCHAR, block_id VARCHAR, child_key VARCHAR, state VARCHAR, attempt INTEGER,
	rows BIGINT, duration_ms DOUBLE, error VARCHAR, error_line INTEGER, log VARCHAR, output BLOB);
CREATE TABLE IF NOT EXISTS _strata.backfills (
	backfill_id VARCHAR, created_at TIMESTAMPTZ, pipeline VARCHAR, spec VARCHAR);
CREATE TABLE IF NOT EXISTS _strata.backfill_events (
	backfill_id VARCHAR, event_at TIMESTAMPTZ, state VARCHAR, message VARCHAR);
` + planRowsDDL + `;
` + promotionsDDL + `;
` + keySetsDDL + `;
`

// Store writes run state through one goroutine with group commit: callers
// hand it events and, when they need durability (intent before dispatch),
// wait on the returned channel, which closes once the batch holding their
// events has committed. Many concurrent writers share one commit.
//
// Events nobody waits on (Queue: a block's progress inside a run) do not
// ask for a commit of their own: they ride along with the next durable one
// or, when none comes, are committed lazyDelay later. Batches commit in
// sequence order, so once an event is durable every event queued before
// it is too. In an engine the batches are the warehouse's own write
// transactions, publishes included (state_store_ridealong.go).
type Store struct {
	db    *sql.DB
	guard func() error // refuses commits when the warehouse cannot keep them
	// wh, when set, is the warehouse whose write transactions carry the
	// events (state_store_ridealong.go): they ride along with publishes,
	// and a flush only asks for a transaction when none came.
	wh rideWarehouse

	mu       sync.Mutex
	pending  []Event
	waiters  []waiter
	inflight []waiter // taken by the warehouse transaction now committing
	seq      int64
	stopped  bool // the writer is gone: Append answers at once
	kick     chan struct{}
	lazy     chan struct{} // an event was queued without a waiter
	// lazyWait is how long a queued event waits for a durable write
	// (lazyDelay; lakeLazyDelay when commits are costly, RideAlong).
	lazyWait atomic.Int64
	// queuedAt is when the oldest event of pending was queued (zero when
	// nothing is): its lazy wait counts from then.
	queuedAt time.Time
	closed   chan struct{}
	done     chan struct{}
}

// OpenStore creates the state tables if needed and starts the writer.
func OpenStore(ctx context.Context, db *sql.DB) (*Store, error) {
	for _, stmt := range strings.Split(stateSchema, ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return nil, fmt.Errorf("create run state tables: %w", err)
		}
	}
	// Run state written before child outputs (or pipeline versions) were
	// kept lacks the column.
	for _, q := range []string{
		`ALTER TABLE _strata.run_events ADD COLUMN IF NOT EXISTS output BLOB`,
		`ALTER TABLE _strata.backfills ADD COLUMN IF NOT EXISTS snapshot VARCHAR`,
		// The plan a backfill made at launch (backfill_launchplan.go).
		`ALTER TABLE _strata.backfills ADD COLUMN IF NOT EXISTS plan VARCHAR`,
		// Who promoted (issue 30: the engine records the actor it is handed).
		`ALTER TABLE _strata.backfill_promotions ADD COLUMN IF NOT EXISTS actor VARCHAR DEFAULT ''`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("upgrade run state tables: %w", err)
		}
	}
	// Nor the engine (interpreted or compiled) a run used.
	// Nor the worker that ran a block (scale-out), nor the origin of a run
	// (a trigger). The appender writes columns in table order, so these
	// come last and in this order.
	// Nor the pipeline version of a child's output.
	for _, col := range []string{"engine VARCHAR", "worker VARCHAR", "origin VARCHAR DEFAULT ''", "snapshot VARCHAR DEFAULT ''"} {
		if _, err := db.ExecContext(ctx, `ALTER TABLE _strata.run_events ADD COLUMN IF NOT EXISTS `+col); err != nil {
			return nil, fmt.Errorf("upgrade run state tables: %w", err)
		}
	}
	s := &Store{db: db, kick: make(chan struct{}, 1), lazy: make(chan struct{}, 1), closed: make(chan struct{}), done: make(chan struct{})}
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM _strata.run_events`).Scan(&s.seq); err != nil {
		return nil, err
	}
	go s.loop()
	return s, nil
}

// ReadOnlyStore is a Store over a warehouse opened read-only: it reads the
// run state as it is and refuses every event (Append answers ErrStoreClosed).
func ReadOnlyStore(db *sql.DB) *Store {
	s := &Store{db: db, stopped: true, kick: make(chan struct{}, 1), lazy: make(chan struct{}, 1), closed: make(chan struct{}), done: make(chan struct{})}
	close(s.closed)
	close(s.done)
	return s
}

// Guard makes every commit ask check first and fail with its error: the
// engine passes the warehouse's Healthy, so run state is not written into a
// file that was removed or replaced under the process.
func (s *Store) Guard(check func() error) { s.guard = check }

// Append queues events and asks for a commit; the channel receives the
// commit's outcome.
func (s *Store) Append(evs ...Event) <-chan error {
	ch := make(chan error, 1)
	if !s.enqueue(evs, ch) {
		if len(evs) == 0 {
			ch <- nil // a flush: nothing of ours is left unwritten
		} else {
			ch <- ErrStoreClosed
		}
		return ch
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return ch
}

// Queue queues events nobody waits for: they are committed with the next
// batch someone waits for, or lazyDelay later. A commit error reaches the
// next durable write of the same batch, or nobody: a state the work does
// not depend on.
func (s *Store) Queue(evs ...Event) {
	if len(evs) == 0 || !s.enqueue(evs, nil) {
		return
	}
	select {
	case s.lazy <- struct{}{}:
	default:
	}
}

// lazyDelay bounds how long a queued event waits for a durable commit to
// ride along with.
const lazyDelay = 50 * time.Millisecond

// lakeLazyDelay is lazyDelay on a warehouse whose commits are costly (a
// DuckLake: 40-55 ms of CPU each, whatever they carry). It is longer than
// a backfill's lake group linger (backfill_group_commit.go), so the block
// events queued meanwhile ride with the group's transaction instead of
// committing on their own: measured, at 50 ms they made most of a lake
// backfill's commits once the group waited longer.
const lakeLazyDelay = 2 * time.Second

func (s *Store) lazyDelay() time.Duration {
	if d := time.Duration(s.lazyWait.Load()); d > 0 {
		return d
	}
	return lazyDelay
}

// LastSeq is the number of the last event handed to the store: it grows
// with every event this process writes to the run log.
func (s *Store) LastSeq() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// enqueue numbers evs and adds them (and the waiter ch, when not nil) to
// the next batch; false when the writer is gone.
func (s *Store) enqueue(evs []Event, ch chan error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return false
	}
	for i := range evs {
		s.seq++
		evs[i].Seq = s.seq
		if evs[i].At.IsZero() {
			evs[i].At = time.Now()
		}
	}
	if len(s.pending) == 0 {
		s.queuedAt = time.Now()
	}
	s.pending = append(s.pending, evs...)
	if ch != nil {
		s.waiters = append(s.waiters, waiter{ch: ch, upTo: s.seq})
	}
	return true
}

// Write appends and waits until the events are durable.
func (s *Store) Write(ctx context.Context, evs ...Event) error {
	select {
	case err := <-s.Append(evs...):
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ErrStoreClosed answers events appended after Close.
var ErrStoreClosed = errors.New("run state store is closed")

// Close flushes what is queued and stops the writer.
func (s *Store) Close() {
	select {
	case <-s.closed:
	default:
		close(s.closed)
	}
	<-s.done
}

func (s *Store) loop() {
	defer close(s.done)
	for {
		select {
		case <-s.kick:
		case <-s.lazy:
			// Only events nobody waits for: give a durable write the
			// chance to take them along.
			if !s.lazyWaitOut() {
				continue
			}
		case <-s.closed:
			// Flush until nothing is queued, then refuse new events in the
			// same critical section, so none is left waiting forever.
			for {
				s.flush()
				s.mu.Lock()
				if len(s.pending) == 0 && len(s.waiters) == 0 {
					s.stopped = true
					s.mu.Unlock()
					return
				}
				s.mu.Unlock()
			}
		}
		// A short pause lets concurrent writers join this commit.
		time.Sleep(500 * time.Microsecond)
		s.flush()
	}
}

// lazyWaitOut waits until the oldest queued event has waited lazyDelay,
// or a durable write is asked for, or the store closes. A warehouse
// transaction may take the queued events meanwhile without telling the
// writer (a publish carrying them, state_store_ridealong.go): the wait
// then goes on for the events queued since, from when they were queued,
// so that each gets its whole delay to find a ride instead of a commit of
// its own. It says whether to flush now: not when everything queued was
// taken along (the next Queue signals again).
func (s *Store) lazyWaitOut() bool {
	for {
		s.mu.Lock()
		since := s.queuedAt
		s.mu.Unlock()
		if since.IsZero() {
			return false
		}
		left := s.lazyDelay() - time.Since(since)
		if left <= 0 {
			return true
		}
		t := time.NewTimer(left)
		select {
		case <-s.kick:
			t.Stop()
			return true
		case <-s.closed:
			t.Stop()
			return true
		case <-t.C:
		}
	}
}

func (s *Store) flush() {
	if s.wh != nil {
		s.flushRiding()
		return
	}
	s.mu.Lock()
	evs, waiters := s.pending, s.waiters
	s.pending, s.waiters, s.queuedAt = nil, nil, time.Time{}
	s.mu.Unlock()
	if len(evs) == 0 {
		for _, w := range waiters {
			w.ch <- nil
		}
		return
	}
	err := s.commit(evs)
	for _, w := range waiters {
		w.ch <- err
	}
}

// commit appends the batch with DuckDB's Appender inside one transaction:
// a multi-row INSERT spends most of its time parsing and binding parameters.
func (s *Store) commit(evs []Event) error {
	if s.guard != nil {
		if err := s.guard(); err != nil {
			return fmt.Errorf("write run state: %w", err)
		}
	}
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	err = conn.Raw(func(dc any) error { return appendEvents(dc.(driver.Conn), evs) })
	if err != nil {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("write run state: %w", err)
	}
	if s.guard != nil { // again: the file may have changed meanwhile
		if err := s.guard(); err != nil {
			_, _ = conn.ExecContext(ctx, "ROLLBACK")
			return fmt.Errorf("write run state: %w", err)
		}
	}
	_, err = conn.ExecContext(ctx, "COMMIT")
	return err
}

// appendEvents appends the events to run_events on conn, in its
// transaction.
func appendEvents(dc driver.Conn, evs []Event) error {
	a, err := duckdb.NewAppender(dc, "", "_strata", "run_events")
	if err != nil {
		return err
	}
	for _, e := range evs {
		if err := a.AppendRow(e.Seq, e.At, e.RunID, e.BackfillID, e.Pipeline, e.Partition, e.Block, e.Child,
			string(e.State), int32(e.Attempt), e.Rows, e.DurationMS, e.Error, int32(e.ErrorLine), e.Log, blob(e.Output), e.Engine, e.Worker, e.Origin, e.Snapshot); err != nil {
			_ = a.Close()
			return err
		}
	}
	return a.Close()
}

// blob is nil (NULL) for an empty output.
func blob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
