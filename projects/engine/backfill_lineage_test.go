package engine

import (
	"context"
	"strings"
	"testing"
)

// After `retry --use-current-code` a backfill's partitions were computed by
// two pipeline versions: the status says so, with how many partitions each
// computed, and each partition says which one computed it, as the catalog
// records it. Before, the status named only the new version, as though it
// had computed every partition (found by running the binary at 2 a.m.).
func TestStatusSaysWhichVersionComputedEachPartition(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-03"))
	ctx := context.Background()
	st := e.backfill(spec("2024-01-01", "2024-01-05"))
	if st.State != StateFailed {
		t.Fatalf("want a failure: %s", st.State)
	}
	old := st.Snapshot
	if len(st.Ran) != 1 || st.Ran[0].Snapshot != old {
		t.Fatalf("before the retry: ran %+v, want only %s", st.Ran, old)
	}
	writeFiles(t, e.dir, dailyFiles(""))
	e.reload()
	rp, err := e.eng.PlanRetry(ctx, st.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := rp.String(); strings.Contains(s, "map[") || !strings.Contains(s, "(1 failed, 1 skipped rollup)") {
		t.Fatalf("retry dry run reads %q", s)
	}
	if _, err := e.eng.Retry(ctx, st.ID, true); err != nil {
		t.Fatal(err)
	}
	fixed, err := e.eng.Wait(ctx, st.ID)
	if err != nil || fixed.State != StateSucceeded {
		t.Fatalf("retry: %v %+v", err, fixed)
	}
	fixed, err = e.eng.Backfill(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The truth: the catalog's snapshot of each partition's versions.
	truth := map[string]string{}
	rows, err := e.eng.wh.DB().QueryContext(ctx, `SELECT partition, any_value(snapshot), count(DISTINCT snapshot)
		FROM _strata.versions WHERE starts_with(run_id, ?) GROUP BY partition`, st.ID+":")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p, s string
		var n int
		if err := rows.Scan(&p, &s, &n); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("partition %s: %d pipeline versions in its versions", p, n)
		}
		truth[p] = s
	}
	rows.Close()
	count := map[string]int{}
	for _, s := range truth {
		count[s]++
	}
	if len(count) != 2 || count[fixed.Snapshot] == 0 || count[old] == 0 {
		t.Fatalf("catalog: %v; want versions of %s and %s", count, old, fixed.Snapshot)
	}
	got := map[string]int{}
	for _, r := range fixed.Ran {
		got[r.Snapshot] = r.Partitions
	}
	if len(got) != len(count) || got[old] != count[old] || got[fixed.Snapshot] != count[fixed.Snapshot] {
		t.Fatalf("status says it ran %+v; the catalog has %v", fixed.Ran, count)
	}
	parts, _, err := e.eng.BackfillPartitions(ctx, st.ID, "", 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if p.Snapshot != truth[p.Key] {
			t.Errorf("partition %s: status says version %q, the catalog %q", p.Key, p.Snapshot, truth[p.Key])
		}
	}
	if s := fixed.RanString(); !strings.Contains(s, shortHash(old)) || !strings.Contains(s, shortHash(fixed.Snapshot)) {
		t.Fatalf("ran line %q names not both versions", s)
	}
}
