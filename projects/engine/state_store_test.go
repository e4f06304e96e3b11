package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Events appended while the store closes are either committed or refused
// with ErrStoreClosed; no writer waits forever.
func TestStoreCloseAnswersEveryWriter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	store := e.eng.Store()
	var wg sync.WaitGroup
	results := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == 100 {
				store.Close()
			}
			results <- store.Write(context.Background(), Event{RunID: "r", State: StateRunning})
		}(i)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a writer is still waiting 30 s after Close")
	}
	close(results)
	for err := range results {
		if err != nil && !errors.Is(err, ErrStoreClosed) {
			t.Fatalf("write during close: %v", err)
		}
	}
	if err := store.Write(context.Background(), Event{RunID: "r"}); !errors.Is(err, ErrStoreClosed) {
		t.Fatalf("write after close: %v, want ErrStoreClosed", err)
	}
}

// Queued events commit with the next durable write, in order, and without
// one they still commit on their own (lazyDelay later).
func TestStoreQueuedEventsRideAlongAndCommitAlone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	store := e.eng.Store()
	db := e.wh.DB()
	count := func(run string) int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM _strata.run_events WHERE run_id = ?`, run).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	store.Queue(Event{RunID: "q1", Block: "b", State: StateRunning}, Event{RunID: "q1", Block: "b", State: StateSucceeded})
	if err := store.Write(context.Background(), Event{RunID: "q1", State: StateSucceeded}); err != nil {
		t.Fatal(err)
	}
	if n := count("q1"); n != 3 {
		t.Fatalf("after a durable write: %d events of q1 committed, want the 2 queued before it and its own", n)
	}
	var seqs []int64
	rows, err := db.Query(`SELECT seq FROM _strata.run_events WHERE run_id = 'q1' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s int64
		_ = rows.Scan(&s)
		seqs = append(seqs, s)
	}
	rows.Close()
	if len(seqs) != 3 || seqs[0] >= seqs[1] || seqs[1] >= seqs[2] {
		t.Fatalf("seqs %v, want increasing in the order queued", seqs)
	}

	store.Queue(Event{RunID: "q2", Block: "b", State: StateRunning})
	for deadline := time.Now().Add(30 * time.Second); count("q2") != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a queued event was not committed 30 s later with no durable write to ride along")
		}
	}
}

// A queued event waits lazyDelay from when it was queued, not from when
// the event that started the wait was: once a durable write took that one
// along, an event queued since still has its own lazyDelay to find a ride.
// Before, it was committed on its own when the first event's wait ran out:
// on a lake (2 s) that made a commit of a few block events every 2 s of a
// backfill, ~14 ms of the coordinator's CPU each.
func TestStoreQueuedEventWaitsItsOwnDelay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	store := e.eng.Store()
	const d = 1500 * time.Millisecond
	store.lazyWait.Store(int64(d))
	count := func(run string) int {
		var n int
		if err := e.wh.DB().QueryRow(`SELECT count(*) FROM _strata.run_events WHERE run_id = ?`, run).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t0 := time.Now()
	store.Queue(Event{RunID: "first", Block: "b", State: StateRunning})
	time.Sleep(d / 4)
	// A warehouse transaction (a publish, say) takes the queued event
	// along, without telling the store's writer.
	if !store.riding() {
		t.Fatal("the engine's store does not ride along with the warehouse's transactions")
	}
	if err := e.wh.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if count("first") != 1 {
		t.Fatal("the warehouse's transaction did not take the queued event along")
	}
	time.Sleep(time.Until(t0.Add(d * 6 / 10)))
	t1 := time.Now()
	store.Queue(Event{RunID: "second", Block: "b", State: StateRunning})
	time.Sleep(time.Until(t0.Add(d * 12 / 10))) // past the first event's delay
	n := count("second")
	// Asserted only while the second event's own delay has not run out
	// (a stalled machine may have slept past it).
	if time.Since(t1) < d && n != 0 {
		t.Fatalf("an event queued %s ago was committed on its own, before its %s to find a durable write", time.Since(t1).Round(time.Millisecond), d)
	}
	for deadline := time.Now().Add(30 * time.Second); count("second") != 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the second queued event was never committed")
		}
	}
}
