package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A backfill's status reads its runs' versions on every poll. On a lake,
// after the first read, a read costs the versions table's changes since the
// last one, never the whole table again (which grows with the history),
// and still answers exactly what a plain query over the table answers: new
// versions, a retention's deletes, and (after the snapshots it knew
// expired) a fresh read.
func TestVersionsOfRunsReadsOnlyTheChangesOnALake(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Retention: 2, Lake: lake})
	defer wh.Close()
	wh.follows.changesMin = 1 // read the changes of tables however small
	pub := func(run, product, partition, snapshot string) {
		t.Helper()
		o := out(product, partition, ids(t, 1, 2))
		o.RunID, o.Snapshot = run, snapshot
		if _, err := wh.Publish(ctx, []Output{o}); err != nil {
			t.Fatal(err)
		}
	}
	// The history: other backfills' versions.
	for i := range 12 {
		pub(fmt.Sprintf("bf_old:2024-01-%02d", i+1), "p", fmt.Sprintf("2024-01-%02d", i+1), "s0")
	}
	pub("bf_new:2024-03-01", "p", "2024-03-01", "s1")
	pub("bf_new:2024-03-02", "q", "2024-03-02", "s1")
	pub("bf_newer:2024-03-02", "q", "2024-03-02", "s1") // a prefix of another backfill's id: not ours

	check := func(step string, wantFull int) {
		t.Helper()
		got, err := wh.VersionsOfRuns(ctx, "bf_new:")
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		var have []string
		for _, v := range got {
			have = append(have, fmt.Sprintf("%s/%s/%d %s %s", v.Product, v.Partition, v.Version, v.RunID, v.Snapshot))
		}
		want := query(t, wh, `SELECT product || '/' || partition || '/' || version || ' ' || run_id || ' ' || snapshot FROM _strata.versions
			WHERE starts_with(run_id, 'bf_new:') AND snapshot <> ''`)
		var exp []string
		for _, r := range rowsOf(want) {
			exp = append(exp, r[0].(string))
		}
		slices.Sort(have)
		slices.Sort(exp)
		if !slices.Equal(have, exp) {
			t.Fatalf("%s: VersionsOfRuns = %v, the table says %v", step, have, exp)
		}
		if wh.follows.full != wantFull {
			t.Fatalf("%s: the versions table was read whole %d times (and %d times only its changes), want %d: a status poll would scan the history every time",
				step, wh.follows.full, wh.follows.diff, wantFull)
		}
		t.Logf("%s: %d versions, %d whole reads, %d reads of the changes", step, len(have), wh.follows.full, wh.follows.diff)
	}
	check("first read", 1)
	check("nothing changed", 1)
	// A retry publishes again, other backfills publish meanwhile, and
	// retention (2 versions) drops bf_new's first version of q.
	pub("bf_new:2024-03-02~2", "q", "2024-03-02", "s2")
	pub("bf_other:2024-03-02", "q", "2024-03-02", "s3")
	pub("bf_old:2024-01-01", "p", "2024-01-01", "s0")
	check("after publishes and a retention delete", 1)
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions WHERE run_id = 'bf_new:2024-03-02'`); n != 0 {
		t.Fatalf("retention kept %d versions of bf_new:2024-03-02; the test wants it deleted", n)
	}
	// The snapshot it knew expires: a whole read again, the same answer.
	wh.backend.(*lakeBackend).opts.KeepSnapshots = time.Microsecond
	time.Sleep(5 * time.Millisecond)
	pub("bf_new:2024-03-03", "p", "2024-03-03", "s2")
	if err := wh.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var oldest int64
	if err := wh.DB().QueryRowContext(ctx, `SELECT min(snapshot_id) FROM ducklake_snapshots('`+LakeName+`')`).Scan(&oldest); err != nil {
		t.Fatal(err)
	}
	var cached int64
	for _, c := range wh.follows.byQ {
		cached = c.snap
	}
	if oldest <= cached+1 {
		t.Fatalf("the sweep kept the snapshots since the cached one (oldest %d): the expired case is not reached", oldest)
	}
	check("after its snapshots expired", 2)
}
