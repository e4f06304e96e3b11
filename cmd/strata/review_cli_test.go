package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestReviewFlow drives the README's review flow through the real binary on
// the demo: a changed block, a review backfill that publishes nothing, its
// summary and one partition's keyed row diff, a partial promote, the rest,
// a diff between kept versions, and a rollback.
func TestReviewFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	contains := func(out string, wants ...string) {
		t.Helper()
		mustContain(t, out, wants...)
	}
	run(0, "init", demo, "--demo")
	run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-03")
	sqlFile := filepath.Join(demo, "blocks", "daily_customer_metrics.sql")
	src, err := os.ReadFile(sqlFile)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "round(sum(amount), 2)", "round(sum(amount), 0)", 1)
	if changed == string(src) {
		t.Fatal("the demo's daily_customer_metrics.sql no longer rounds revenue to 2 digits")
	}
	if err := os.WriteFile(sqlFile, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	before := run(0, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-01-02", "--format", "json")
	out := run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-03", "--reprocess", "all", "--publish", "review")
	contains(out, "ready for review", "daily_customer_metrics       3        0          0", "check pass revenue_total", "check pass rows_kept")
	if after := run(0, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-01-02", "--format", "json"); after != before {
		t.Fatal("a review backfill changed the current data")
	}
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(run(0, "backfill", "list", demo, "--format", "json")), &list); err != nil || len(list) != 2 {
		t.Fatalf("backfill list: %v %v", list, err)
	}
	id := list[0].ID
	contains(run(0, "backfill", "diff", demo, id), "clv__clv                     0        3")
	contains(run(0, "backfill", "diff", demo, id, "--product", "daily_customer_metrics", "--partition", "2024-01-02", "--rows", "2"),
		"(key customer_id)", "first 2 changed rows (old above new)", "- changed", "+ changed")
	contains(run(0, "backfill", "promote", demo, id, "--only", "2024-01-01..2024-01-02"), "daily_customer_metrics: 2 partitions", "versions are still staged for review")
	contains(run(0, "backfill", "promote", demo, id), "daily_customer_metrics: 1 partitions")
	contains(run(0, "diff", demo, "daily_customer_metrics", "--partition", "2024-01-02", "--from-version", "1", "--to-version", "2", "--rows", "1"),
		"version 1 → version 2", "changed, 0 added, 0 removed (key customer_id)")
	contains(run(0, "backfill", "rollback", demo, id), "rolled back")
	if after := run(0, "preview", demo, "clv", "daily_customer_metrics", "--partition", "2024-01-02", "--format", "json"); after != before {
		t.Fatal("the rollback did not restore the data current before the promote")
	}
	contains(run(1, "backfill", "rollback", demo, id), "made nothing current that is not rolled back already")
}
