package warehouse

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// storedVersions lists the versions whose rows a partition's storage
// tables hold.
func storedVersions(t *testing.T, wh *Warehouse, product, partition string) []int {
	t.Helper()
	wh.mu.Lock()
	ps := wh.storage[strings.ToLower(product)]
	wh.mu.Unlock()
	if ps == nil {
		return nil
	}
	var out []int
	for _, st := range ps.tables {
		rows, err := wh.DB().QueryContext(context.Background(),
			fmt.Sprintf(`SELECT DISTINCT %s FROM %s WHERE %s = ?`, colVersion, qualified(st.name), colPartition), partition)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		rows.Close()
	}
	slices.Sort(out)
	return out
}

// assertKept checks a partition's kept versions, current version and the
// versions its storage rows belong to, as a reader sees them.
func assertKept(t *testing.T, wh *Warehouse, product, partition string, want []int, current int) {
	t.Helper()
	got, cur := versionsOf(t, wh, product, partition)
	if !reflect.DeepEqual(got, want) || cur != current {
		t.Fatalf("%s %s: versions %v current %d, want %v current %d", product, partition, got, cur, want, current)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE product = ? AND partition = ? AND is_current`, product, partition); n != 1 {
		t.Fatalf("%s %s: %d versions flagged current, want 1", product, partition, n)
	}
	// The dropped versions' rows are either still waiting for the sweep,
	// listed as such, or gone (orphan_sweep.go).
	withOrphans := slices.Sorted(slices.Values(append(slices.Clone(want), orphanVersions(wh, product, partition)...)))
	if stored := storedVersions(t, wh, product, partition); !reflect.DeepEqual(stored, withOrphans) {
		t.Fatalf("%s %s: storage holds rows of versions %v, want %v (kept %v)", product, partition, stored, withOrphans, want)
	}
}

// orphanVersions are the versions of a partition whose rows wait for the
// sweep.
func orphanVersions(wh *Warehouse, product, partition string) []int {
	wh.mu.Lock()
	defer wh.mu.Unlock()
	var out []int
	for _, refs := range wh.orphans {
		for _, r := range refs {
			if r.Product == product && r.Partition == partition {
				out = append(out, r.Version)
			}
		}
	}
	return out
}

// A publish of several outputs writes its catalog in one statement per
// kind, not one per output: a new partition costs BEGIN, an INSERT per
// storage table, one catalog INSERT and COMMIT; a replace-and-retain adds
// one flag UPDATE and one catalog DELETE (the dropped versions' rows are
// deleted later, a DELETE per storage table for many versions). A reader
// sees exactly the retained versions right after.
func TestPublishBatchesItsCatalogStatements(t *testing.T) {
	t.Parallel()
	for _, n := range []int{7, maxListed + 30} { // listed, and through strata_rows
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			wh := openTemp(t, Options{Retention: 2})
			ctx := context.Background()
			products := func(partition string, v int64) []Output {
				outs := make([]Output, n)
				for i := range outs {
					outs[i] = out(fmt.Sprintf("p%03d", i), partition, ids(t, v, int64(i)))
				}
				return outs
			}
			counted := func(outs []Output) int64 {
				before := wh.statements.Load()
				if _, err := wh.Publish(ctx, outs); err != nil {
					t.Fatal(err)
				}
				return wh.statements.Load() - before
			}
			counted(products("2024-03-01", 1)) // creates the storage tables
			if got, want := counted(products("2024-03-02", 1)), int64(n+3); got != want {
				t.Fatalf("new partition of %d products: %d statements, want %d (one catalog INSERT)", n, got, want)
			}
			counted(products("2024-03-01", 2))
			if got, want := counted(products("2024-03-01", 3)), int64(n+5); got != want {
				t.Fatalf("replace and retain %d products: %d statements, want %d (one UPDATE, one catalog DELETE)", n, got, want)
			}
			for i := range n {
				p := fmt.Sprintf("p%03d", i)
				assertKept(t, wh, p, "2024-03-01", []int{2, 3}, 3)
				assertKept(t, wh, p, "2024-03-02", []int{1}, 1)
				assertRows(t, read(t, wh, p, Selection{Partitions: []string{"2024-03-01"}}), row("2024-03-01", int64(3)), row("2024-03-01", int64(i)))
			}
			// The sweep deletes every dropped version's rows: one DELETE
			// per storage table.
			before := wh.statements.Load()
			if err := wh.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := wh.statements.Load()-before, int64(n+2); got != want {
				t.Fatalf("sweep of %d storage tables: %d statements, want %d", n, got, want)
			}
			if wh.Orphans() != 0 {
				t.Fatalf("%d dropped versions left after the sweep", wh.Orphans())
			}
			for i := range n {
				p := fmt.Sprintf("p%03d", i)
				if stored := storedVersions(t, wh, p, "2024-03-01"); !reflect.DeepEqual(stored, []int{2, 3}) {
					t.Fatalf("%s: storage holds rows of versions %v after the sweep, want [2 3]", p, stored)
				}
			}
		})
	}
}

// Publishes of one partition that share a transaction keep exactly the
// retained versions: the versions retention drops inside the group are
// never written to the catalog, and their rows wait for the sweep.
func TestGroupedRepublishesOfOnePartitionKeepRetention(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	publish(t, wh, "orders", "2024-03-01", ids(t, 0))
	var extra []Output
	for i := range 6 {
		extra = append(extra, out("orders", "2024-03-01", ids(t, int64(i+1))))
	}
	errs, commits := queuePublishes(t, wh, 0, 0, extra...)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("publish %d: %v", i, err)
		}
	}
	if commits != 1 {
		t.Fatalf("6 queued publishes took %d transactions, want 1", commits)
	}
	assertKept(t, wh, "orders", "2024-03-01", []int{6, 7}, 7)
	if n := scalar(t, wh, `SELECT count(*) FROM orders`); n != 1 {
		t.Fatalf("the view holds %d rows, want the current version's 1", n)
	}
}

// Versions staged and pinned in one transaction are protected from
// retention before their pins are written.
func TestGroupedPinnedStagesSurviveRetention(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	publish(t, wh, "orders", "2024-03-01", ids(t, 0))
	calls := make([]func() error, 4)
	for i := range calls {
		o := out("orders", "2024-03-01", ids(t, int64(i+1)))
		o.Pin = "bf"
		calls[i] = func() error { _, err := wh.Stage(context.Background(), []Output{o}); return err }
	}
	errs, commits := queueWrites(t, wh, calls...)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("stage %d: %v", i, err)
		}
	}
	if commits != 1 {
		t.Fatalf("4 queued stages took %d transactions, want 1", commits)
	}
	assertKept(t, wh, "orders", "2024-03-01", []int{1, 2, 3, 4, 5}, 1)
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.pins WHERE owner = 'bf'`); n != 4 {
		t.Fatalf("%d pins, want 4", n)
	}
}

// A caller whose second output fails leaves nothing of its first: the
// group's pending catalog rows are dropped with the failed transaction, and
// the others' are written exactly once when they run again.
func TestGroupedFailureDropsThePendingRows(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	publish(t, wh, "Refunds", "2024-03-01", ids(t, 1))
	for i := range 3 {
		publish(t, wh, "orders", fmt.Sprintf("2024-03-0%d", i+1), ids(t, 0))
	}
	calls := []func() error{}
	for i := range 3 { // replace and retain: flags and deletes pending
		o := out("orders", fmt.Sprintf("2024-03-0%d", i+1), ids(t, int64(i+1)))
		calls = append(calls, func() error { _, err := wh.Publish(context.Background(), []Output{o}); return err })
	}
	bad := []Output{out("orders", "2024-03-09", ids(t, 9)), out("refunds", "2024-03-02", ids(t, 2))}
	calls = append(calls, func() error { _, err := wh.Publish(context.Background(), bad); return err })
	errs, _ := queueWrites(t, wh, calls...)
	for i, err := range errs[:3] {
		if err != nil {
			t.Fatalf("publish %d failed with the group's bad one: %v", i, err)
		}
	}
	assertErrContains(t, errs[3], "differs only in case")
	for i := range 3 {
		assertKept(t, wh, "orders", fmt.Sprintf("2024-03-0%d", i+1), []int{1, 2}, 2)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE partition = '2024-03-09'`); n != 0 {
		t.Fatalf("the failed publish left %d catalog rows", n)
	}
	if stored := storedVersions(t, wh, "orders", "2024-03-09"); len(stored) != 0 {
		t.Fatalf("the failed publish left rows of versions %v", stored)
	}
}

// An empty output's version is its catalog row alone: no storage INSERT.
func TestPublishOfAnEmptyTableInsertsNoRows(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	publish(t, wh, "orders", "2024-03-01", ids(t, 1))
	before := wh.statements.Load()
	v := publish(t, wh, "orders", "2024-03-02", ids(t))
	if got := wh.statements.Load() - before; got != 3 {
		t.Fatalf("publish of an empty table: %d statements, want 3 (BEGIN, the catalog row, COMMIT)", got)
	}
	if v.Rows != 0 || v.Version != 1 {
		t.Fatalf("version %+v, want version 1 of 0 rows", v)
	}
	assertRows(t, read(t, wh, "orders", Selection{Partitions: []string{"2024-03-02"}}))
	if _, cur := versionsOf(t, wh, "orders", "2024-03-02"); cur != 1 {
		t.Fatalf("current %d, want 1", cur)
	}
}
