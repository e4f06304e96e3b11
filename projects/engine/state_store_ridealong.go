package engine

import (
	"context"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// Run state rides along with the warehouse's write transactions: the Store
// is the warehouse's CommitHook, so every transaction (a publish, a
// promote, a flush) appends all the events queued so far just before its
// COMMIT, and their waiters hear once it committed. A run's running event
// therefore usually costs no transaction of its own (another run's publish
// carries it), and its final state is written by its own publish (Then),
// durable together with its versions. Transactions commit one at a time
// under the warehouse's write lock and each takes every event queued
// before it, so events still commit in sequence order.

// rideWarehouse is what the Store needs of the warehouse.
type rideWarehouse interface {
	SetCommitHook(warehouse.CommitHook)
	Flush(ctx context.Context) error
}

// waiter is a caller waiting for the events queued up to seq upTo.
type waiter struct {
	ch   chan error
	upTo int64
}

// RideAlong makes the Store commit through wh's write transactions (see
// above) instead of transactions of its own.
func (s *Store) RideAlong(wh rideWarehouse) {
	s.wh = wh
	wh.SetCommitHook(storeHook{s})
	if c, ok := wh.(interface{ CostlyCommits() bool }); ok && c.CostlyCommits() {
		s.lazyWait.Store(int64(lakeLazyDelay))
	}
}

// riding reports whether events commit with the warehouse's transactions,
// so that a publish can carry the run's final state.
func (s *Store) riding() bool { return s.wh != nil }

// rideEvents is what a publish's Then hands the hook: events written in the
// publish's transaction.
type rideEvents []Event

// number gives events their sequence numbers and times without queueing
// them: they are written by the transaction that asked (rideEvents).
func (s *Store) number(evs []Event) []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range evs {
		s.seq++
		evs[i].Seq = s.seq
		if evs[i].At.IsZero() {
			evs[i].At = time.Now()
		}
	}
	return evs
}

// flushRiding asks for a transaction when events are waiting: a publish
// committing meanwhile may take them first, and then this one carries
// nothing, or whatever was queued since.
func (s *Store) flushRiding() {
	s.mu.Lock()
	upTo := s.seq
	idle := len(s.pending) == 0 && len(s.waiters) == 0
	s.mu.Unlock()
	if idle {
		return
	}
	var err error
	if s.guard != nil {
		err = s.guard()
	}
	if err == nil {
		err = s.wh.Flush(context.Background())
	}
	if err != nil {
		// Refused before the hook ran (the warehouse is closed, or cannot
		// keep the file): what was queued up to now is not written, and
		// its waiters hear so, as from a failed commit.
		s.fail(upTo, fmt.Errorf("write run state: %w", err))
	}
}

// fail drops the events up to seq upTo still queued and answers err to
// their waiters.
func (s *Store) fail(upTo int64, err error) {
	s.mu.Lock()
	kept := s.pending[:0]
	for _, e := range s.pending {
		if e.Seq > upTo {
			kept = append(kept, e)
		}
	}
	s.pending = kept
	if len(kept) == 0 {
		s.queuedAt = time.Time{}
	}
	var failed []waiter
	keptW := s.waiters[:0]
	for _, w := range s.waiters {
		if w.upTo <= upTo {
			failed = append(failed, w)
		} else {
			keptW = append(keptW, w)
		}
	}
	s.waiters = keptW
	s.mu.Unlock()
	for _, w := range failed {
		w.ch <- err
	}
}

// storeHook is the Store as the warehouse's CommitHook.
type storeHook struct{ s *Store }

// BeforeCommit appends every queued event, and those the transaction's
// publishes carry, in one Appender.
func (h storeHook) BeforeCommit(conn driver.Conn, rideAlong []any) error {
	s := h.s
	s.mu.Lock()
	evs := s.pending
	s.pending, s.queuedAt = nil, time.Time{}
	s.inflight = append(s.inflight, s.waiters...)
	s.waiters = nil
	s.mu.Unlock()
	for _, r := range rideAlong {
		if more, ok := r.(rideEvents); ok {
			evs = append(evs, more...)
		}
	}
	if len(evs) == 0 {
		return nil
	}
	if err := appendEvents(conn, evs); err != nil {
		return fmt.Errorf("write run state: %w", err)
	}
	return nil
}

// AfterCommit answers the waiters of the events the transaction took. When
// it rolled back they are lost (as from a failed commit of their own).
func (h storeHook) AfterCommit(err error) {
	s := h.s
	s.mu.Lock()
	ws := s.inflight
	s.inflight = nil
	s.mu.Unlock()
	if err != nil {
		err = fmt.Errorf("write run state: %w", err)
	}
	for _, w := range ws {
		w.ch <- err
	}
}
