package warehouse

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// versionTable is the one storage table of product.
func versionTable(t *testing.T, wh *Warehouse, product string) string {
	t.Helper()
	var name string
	if err := wh.DB().QueryRowContext(context.Background(), `SELECT DISTINCT storage_table FROM _strata.versions WHERE product = ?`, product).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

func publishLate(t *testing.T, wh *Warehouse, partition string, id int64) Version {
	t.Helper()
	o := out("facts", partition, ids(t, id))
	o.LateRetention = true
	vs, err := wh.Publish(context.Background(), []Output{o})
	if err != nil {
		t.Fatal(err)
	}
	return vs[0]
}

// A late output keeps every version, whole, until Sweep applies the
// retention it left waiting; then the partition holds what retention keeps
// and no row of the dropped version stays.
func TestLateRetentionWaitsForSweep(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	for i := range 4 {
		publishLate(t, wh, "2024-01-01", int64(i+1))
	}
	if vs, cur := versionsOf(t, wh, "facts", "2024-01-01"); !slices.Equal(vs, []int{1, 2, 3, 4}) || cur != 4 {
		t.Fatalf("before the sweep: versions %v current %d; want all four, 4 current", vs, cur)
	}
	// The oldest is still readable, catalog row and rows.
	assertRows(t, read(t, wh, "facts", Selection{Partitions: []string{"2024-01-01"}, Version: 1}), row("2024-01-01", int64(1)))
	if n := wh.LateRetentions(); n != 1 {
		t.Fatalf("%d partitions wait for retention, want 1", n)
	}
	if err := wh.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if vs, cur := versionsOf(t, wh, "facts", "2024-01-01"); !slices.Equal(vs, []int{3, 4}) || cur != 4 {
		t.Fatalf("after the sweep: versions %v current %d; want [3 4], 4 current", vs, cur)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE product = 'facts'`); n != 2 {
		t.Fatalf("%d catalog rows after the sweep, want 2", n)
	}
	if n := wh.LateRetentions() + wh.Orphans(); n != 0 {
		t.Fatalf("%d retentions or orphans left after the sweep", n)
	}
	tbl := versionTable(t, wh, "facts")
	if total := scalar(t, wh, `SELECT count(*) FROM `+qualified(tbl)); total != 2 {
		t.Fatalf("%d stored rows after the sweep, want the 2 of the kept versions", total)
	}
}

// Retention decided late is decided as of then: a version made current in
// the meantime (a rollback to v1) is kept, as it would have been.
func TestLateRetentionKeepsWhatBecameCurrent(t *testing.T) {
	t.Parallel()
	wh := openTemp(t, Options{Retention: 2})
	for i := range 3 {
		publishLate(t, wh, "2024-01-01", int64(i+1))
	}
	if err := wh.Rollback(context.Background(), "facts", "2024-01-01", 1); err != nil {
		t.Fatal(err)
	}
	if err := wh.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	vs, cur := versionsOf(t, wh, "facts", "2024-01-01")
	if cur != 1 || !slices.Contains(vs, 1) {
		t.Fatalf("after the sweep: versions %v current %d; the current v1 must stay", vs, cur)
	}
	assertRows(t, read(t, wh, "facts", Selection{Partitions: []string{"2024-01-01"}}), row("2024-01-01", int64(1)))
}

// Close applies waiting retention; a process that dies first leaves the
// versions, and the partition's next ordinary publish applies it.
func TestLateRetentionAtCloseAndAfterACrash(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "warehouse.duckdb")
	wh := openAt(t, path, Options{Retention: 2})
	for i := range 3 {
		publishLate(t, wh, "2024-01-01", int64(i+1))
	}
	wh.Close()
	wh = openAt(t, path, Options{Retention: 2})
	defer wh.Close()
	if vs, _ := versionsOf(t, wh, "facts", "2024-01-01"); !slices.Equal(vs, []int{2, 3}) {
		t.Fatalf("after close and open: versions %v, want [2 3]", vs)
	}
	// As after a crash: the list is gone, the extra versions are not.
	for i := range 2 {
		publishLate(t, wh, "2024-01-02", int64(i+1))
	}
	publishLate(t, wh, "2024-01-02", 3)
	wh.late = map[partKey]bool{} // what a kill -9 forgets
	publish(t, wh, "facts", "2024-01-02", ids(t, 4))
	if vs, cur := versionsOf(t, wh, "facts", "2024-01-02"); !slices.Equal(vs, []int{3, 4}) || cur != 4 {
		t.Fatalf("an ordinary publish after a lost list: versions %v current %d, want [3 4], 4", vs, cur)
	}
}
