package warehouse

import (
	"context"
	"database/sql/driver"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// sideHook writes what the publishes carry into a side table of the same
// file, as the engine writes run state.
type sideHook struct {
	mu      sync.Mutex
	before  int
	commits []error
}

func (h *sideHook) BeforeCommit(conn driver.Conn, rideAlong []any) error {
	h.mu.Lock()
	h.before++
	h.mu.Unlock()
	for _, r := range rideAlong {
		if _, err := conn.(driver.ExecerContext).ExecContext(context.Background(), `INSERT INTO side VALUES ('`+r.(string)+`')`, nil); err != nil {
			return err
		}
	}
	return nil
}

func (h *sideHook) AfterCommit(err error) {
	h.mu.Lock()
	h.commits = append(h.commits, err)
	h.mu.Unlock()
}

// What a publish's Then returns is written by the CommitHook in that
// publish's transaction: publishes grouped into one transaction each carry
// theirs, and when one of the group fails, the group rolls back and each is
// retried alone, so only the publishes that committed have their side rows,
// each once.
func TestCommitHookWritesWhatCommittedPublishesCarry(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	if _, err := wh.DB().Exec(`CREATE TABLE side (v VARCHAR)`); err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "Refunds", "2024-03-01", ids(t, 1))
	h := &sideHook{}
	wh.SetCommitHook(h)

	outs := []Output{out("refunds", "2024-03-02", ids(t, 2))} // differs only in case: refused
	for i := range 6 {
		outs = append(outs, out("orders", day("2024-03-01").AddDate(0, 0, i).Format("2006-01-02"), ids(t, int64(i))))
	}
	errs := make([]error, len(outs))
	var wg sync.WaitGroup
	wh.mu.Lock() // the publishes queue up behind it and share a transaction
	for i, o := range outs {
		wg.Go(func() {
			_, errs[i] = wh.PublishThen(context.Background(), []Output{o}, func(vs []Version, c *ConflictError) any {
				return o.Product + "/" + o.Partition
			})
		})
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		wh.qmu.Lock()
		queued := len(wh.queue)
		wh.qmu.Unlock()
		if queued == len(outs) {
			break
		}
		if time.Now().After(deadline) {
			wh.mu.Unlock()
			t.Fatalf("%d of %d publishes queued after 30s", queued, len(outs))
		}
	}
	wh.mu.Unlock()
	wg.Wait()
	assertErrContains(t, errs[0], "differs only in case")
	for i, err := range errs[1:] {
		if err != nil {
			t.Fatalf("publish %d: %v", i+1, err)
		}
	}
	rows, err := wh.DB().Query(`SELECT v FROM side ORDER BY v`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var v string
		_ = rows.Scan(&v)
		got = append(got, v)
	}
	rows.Close()
	var want []string
	for _, o := range outs[1:] {
		want = append(want, o.Product+"/"+o.Partition)
	}
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("side rows %v, want each committed publish's once: %v", got, want)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.before != len(h.commits) {
		t.Fatalf("BeforeCommit ran %d times, AfterCommit %d: each BeforeCommit is followed by one AfterCommit", h.before, len(h.commits))
	}
	for i, err := range h.commits {
		if err != nil {
			t.Fatalf("AfterCommit %d: %v, want only commits (a body failing rolls back before the hook)", i, err)
		}
	}

	// A transaction with nothing of its own (Flush) runs the hook too.
	before := h.before
	h.mu.Unlock()
	if err := wh.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	if h.before != before+1 {
		t.Fatalf("Flush ran the hook %d times, want 1", h.before-before)
	}
}
