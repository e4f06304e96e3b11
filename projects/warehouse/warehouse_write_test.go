package warehouse

import (
	"context"
	"sync"
	"testing"
	"time"
)

// queuePublishes holds the write lock while n publishes of orders (one
// partition each, from first) and the extra outputs queue up behind it,
// then lets them go; it returns each one's error (orders first) and how
// many transactions committed meanwhile.
func queuePublishes(t *testing.T, wh *Warehouse, first, n int, extra ...Output) ([]error, int64) {
	t.Helper()
	outs := make([]Output, 0, n+len(extra))
	for i := range n {
		outs = append(outs, out("orders", day("2024-03-01").AddDate(0, 0, first+i).Format("2006-01-02"), ids(t, int64(first+i))))
	}
	outs = append(outs, extra...)
	calls := make([]func() error, len(outs))
	for i, o := range outs {
		calls[i] = func() error { _, err := wh.Publish(context.Background(), []Output{o}); return err }
	}
	return queueWrites(t, wh, calls...)
}

// queueWrites holds the write lock while the grouped writes calls make
// queue up behind it, then lets them go; it returns each one's error and
// how many transactions committed meanwhile.
func queueWrites(t *testing.T, wh *Warehouse, calls ...func() error) ([]error, int64) {
	t.Helper()
	before := wh.commits.Load()
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	wh.mu.Lock()
	for i, call := range calls {
		wg.Go(func() { errs[i] = call() })
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		wh.qmu.Lock()
		queued := len(wh.queue)
		wh.qmu.Unlock()
		if queued == len(calls) {
			break
		}
		if time.Now().After(deadline) {
			wh.mu.Unlock()
			t.Fatalf("%d of %d writes queued after 30s", queued, len(calls))
		}
		time.Sleep(time.Millisecond)
	}
	wh.mu.Unlock()
	wg.Wait()
	return errs, wh.commits.Load() - before
}

// Publishes that queue while another commits share one transaction, and
// one that fails in it fails alone: the others are committed without it.
func TestGroupedPublishesShareACommitAndFailAlone(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "Refunds", "2024-03-01", ids(t, 1))

	errs, commits := queuePublishes(t, wh, 0, 8)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("publish %d: %v", i, err)
		}
	}
	if commits != 1 {
		t.Fatalf("8 queued publishes took %d transactions, want 1 shared", commits)
	}

	// "refunds" differs only in case from an existing product: refused
	// inside the transaction, after the orders before it ran there.
	errs, _ = queuePublishes(t, wh, 8, 8, out("refunds", "2024-03-02", ids(t, 2)))
	for i, err := range errs[:8] {
		if err != nil {
			t.Fatalf("publish %d failed with the group's bad one: %v", i, err)
		}
	}
	assertErrContains(t, errs[8], "differs only in case")
	for i := range 16 {
		key := day("2024-03-01").AddDate(0, 0, i).Format("2006-01-02")
		if versions, current := versionsOf(t, wh, "orders", key); len(versions) != 1 || current != 1 {
			t.Fatalf("orders %s: versions %v current %d, want [1] current 1", key, versions, current)
		}
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE lower(product) = 'refunds'`); n != 1 {
		t.Fatalf("refunds has %d versions, want only the first product's 1", n)
	}
}
