package warehouse

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// The rows of a dropped version stay in their table until the sweep, and
// no read sees them: not the view, not Read, not a diff whose side holds
// every kept version of that number (which selects the table's rows by
// version number: diff_side.go). Before the fix that diff read the dropped
// version's rows too.
func TestDroppedVersionsRowsAreNeverRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	for _, p := range []string{"2024-03-01", "2024-03-02", "2024-03-03"} {
		publish(t, wh, "facts", p, ids(t, 1, 2))
	}
	// 03-01's version 1 is dropped (retention 1 keeps 2, the current one);
	// its rows, 1000 and 2000, wait for the sweep.
	publish(t, wh, "facts", "2024-03-01", ids(t, 3))
	publish(t, wh, "facts", "2024-03-01", ids(t, 4))
	if got := orphanVersions(wh, "facts", "2024-03-01"); len(got) != 2 {
		t.Fatalf("dropped versions waiting: %v, want versions 1 and 2", got)
	}
	// The other partitions' version 1s are every kept version 1: staging
	// a version 2 of each makes a diff whose before side is all of them.
	var pairs []VersionPair
	for _, p := range []string{"2024-03-02", "2024-03-03"} {
		v := stage(t, wh, "facts", p, ids(t, 1, 2, 3))
		pairs = append(pairs, VersionPair{Partition: p, From: 1, To: v.Version})
	}
	diff := func() string {
		d, err := wh.DiffSet(ctx, "facts", pairs, DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(d)
		return string(b)
	}
	withOrphans := diff()
	assertRows(t, read(t, wh, "facts", Selection{Partitions: []string{"2024-03-01"}}), row("2024-03-01", int64(4)))
	if n := scalar(t, wh, `SELECT count(*) FROM facts`); n != 5 {
		t.Fatalf("the view shows %d rows, want 5 (1 + 2 + 2)", n)
	}
	if err := wh.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if wh.Orphans() != 0 {
		t.Fatalf("%d dropped versions left after the sweep", wh.Orphans())
	}
	if after := diff(); after != withOrphans {
		t.Fatalf("the diff read the dropped version's rows:\nbefore the sweep %s\nafter           %s", withOrphans, after)
	}
}

// A table's dropped versions are deleted by the write transaction that
// brings them to sweepBatch, in one statement, not one per publish.
func TestDroppedVersionsAreSweptInBatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	wh := openTemp(t, Options{Retention: 1})
	publishAll := func(v int64) int64 {
		outs := make([]Output, sweepBatch/2)
		for i := range outs {
			outs[i] = out("facts", day("2020-01-01").AddDate(0, 0, i).Format("2006-01-02"), ids(t, v))
		}
		before := wh.statements.Load()
		if _, err := wh.Publish(ctx, outs); err != nil {
			t.Fatal(err)
		}
		return wh.statements.Load() - before
	}
	n := int64(sweepBatch / 2)
	publishAll(1)
	// BEGIN, the rows of every output (one INSERT: table_batch.go), the
	// catalog INSERT, the catalog DELETE (of the old current version: no
	// flag to clear), COMMIT; the rows of version 1 wait.
	if got := publishAll(2); got != 5 || wh.Orphans() != int(n) {
		t.Fatalf("first rewrite: %d statements, %d dropped versions waiting; want 5 and %d", got, wh.Orphans(), n)
	}
	// The next one reaches sweepBatch: one more DELETE, and none waits.
	if got := publishAll(3); got != 6 || wh.Orphans() != 0 {
		t.Fatalf("second rewrite: %d statements, %d dropped versions waiting; want 6 and 0", got, wh.Orphans())
	}
	checkIntegrity(t, wh)
}

// A crash loses the writer's list of dropped versions, not their rows:
// Open finds a table holding rows no version owns and deletes exactly
// those. (TestCrashKillKeepsCommittedVersionsIntact kills a real publisher;
// here the stray rows are written directly, as a crash would leave them.)
func TestOpenDeletesRowsNoVersionOwns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh := openAt(t, path, Options{})
	publish(t, wh, "facts", "2024-03-01", ids(t, 1, 2))
	publish(t, wh, "facts", "2024-03-02", ids(t, 3))
	table := qualified(storageTableName("facts", ids(t).Schema()))
	for _, stray := range []string{"('2024-03-01', 7, 70)", "('2024-03-09', 1, 90)"} {
		if _, err := wh.DB().ExecContext(ctx, `INSERT INTO `+table+` VALUES `+stray); err != nil {
			t.Fatal(err)
		}
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	wh = openAt(t, path, Options{})
	defer wh.Close()
	assertRows(t, query(t, wh, `SELECT _partition, _version::BIGINT, id FROM `+table+` ORDER BY ALL`),
		row("2024-03-01", int64(1), int64(1)), row("2024-03-01", int64(1), int64(2)), row("2024-03-02", int64(1), int64(3)))
	checkIntegrity(t, wh)
}

// Close deletes the rows still waiting, so a clean stop leaves none.
func TestCloseSweepsDroppedVersions(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh := openAt(t, path, Options{Retention: 1})
	for i := range 4 {
		publish(t, wh, "facts", "2024-03-01", ids(t, int64(i)))
	}
	if wh.Orphans() != 3 { // retention 1 keeps the current version alone
		t.Fatalf("%d dropped versions waiting, want 3", wh.Orphans())
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	wh = openAt(t, path, Options{Retention: 1, ReadOnly: true})
	defer wh.Close()
	table := qualified(storageTableName("facts", ids(t).Schema()))
	if got := fmt.Sprint(query(t, wh, `SELECT list(DISTINCT _version ORDER BY _version) FROM `+table).Row(0)[0]); got != "[4]" {
		t.Fatalf("after Close the table holds versions %s, want [4]", got)
	}
}
