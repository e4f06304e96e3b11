package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestEnvironmentFlow is issue 28's "done" through the real binary on the
// demo: create dev (it holds nothing), change clv, backfill 90 days into
// dev, diff it; prod keeps serving the old values; a prod write between
// the build and the promote makes the promote refuse and name the
// partition, applying nothing; rebuilt there, the promote switches all of
// dev into prod. A prod rewrite of an upstream dev read without a copy of
// its own refuses the promote too.
func TestEnvironmentFlow(t *testing.T) {
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
	preview := func(part string, extra ...string) string {
		t.Helper()
		return run(0, append([]string{"preview", demo, "clv", "clv", "--partition", part, "--format", "json", "--limit", "5"}, extra...)...)
	}
	run(0, "init", demo, "--demo")
	run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-03-30")
	old := map[string]string{"2024-02-01": preview("2024-02-01"), "2024-03-01": preview("2024-03-01")}

	contains(run(0, "env", "create", demo, "dev"), "environment dev: created")
	contains(run(1, "env", "create", demo, "dev"), "already exists")
	contains(run(1, "env", "create", demo, "Prod!"), "environment name")
	var list []struct {
		Name       string
		Partitions int
		Rows       int64
	}
	if err := json.Unmarshal([]byte(run(0, "env", "list", demo, "--format", "json")), &list); err != nil || len(list) != 1 || list[0].Partitions != 0 || list[0].Rows != 0 {
		t.Fatalf("a new environment should hold nothing: %+v %v", list, err)
	}
	if got := preview("2024-02-01", "--env", "dev"); got != old["2024-02-01"] {
		t.Fatal("an unchanged dev does not show prod's data")
	}
	// Recomputing what nothing changed stages nothing: every output equals
	// what dev reads already (prod's), so dev still holds no pointer and no row.
	contains(run(0, "backfill", demo, "clv", "--from", "2024-01-29", "--to", "2024-02-04", "--reprocess", "all", "--env", "dev"), "staged 0 versions into env:dev")
	if err := json.Unmarshal([]byte(run(0, "env", "list", demo, "--format", "json")), &list); err != nil || len(list) != 1 || list[0].Partitions != 0 || list[0].Rows != 0 {
		t.Fatalf("an unchanged dev should hold nothing after a backfill recomputed prod's data: %+v %v", list, err)
	}

	file := filepath.Join(demo, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "lifetime := 2.0", "lifetime := 2.5", 1)
	if changed == string(src) {
		t.Fatal("the demo's clv.go no longer sets lifetime := 2.0")
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(changed)
	// Bad input is refused with what was wrong, before anything runs.
	contains(run(1, "run", demo, "clv", "--partition", "2024-02-01", "--env", "nope"), `environment "nope" does not exist`)
	contains(run(1, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-02", "--env", "dev", "--publish", "atomic"), "cannot publish atomic")
	contains(run(1, "preview", demo, "clv", "clv", "--partition", "2024-02-01", "--env", "Bad"), "environment name")
	contains(run(1, "env", "promote", demo, "nope"), "does not exist")
	contains(run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-03-30", "--reprocess", "all", "--env", "dev"),
		"into environment dev", "staged", "into env:dev; nothing was made current")
	for part, before := range old {
		if got := preview(part); got != before {
			t.Fatalf("prod's clv %s changed by a backfill into dev", part)
		}
		if got := preview(part, "--env", "dev"); got == before {
			t.Fatalf("dev's clv %s shows prod's old values", part)
		}
	}
	newMarch := preview("2024-03-01", "--env", "dev")
	diff := run(0, "env", "diff", demo, "dev")
	contains(diff, "environment dev: 360 partitions differ", "pipeline clv", "clv__clv", "check pass revenue_total")
	for _, line := range strings.Split(diff, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && f[0] == "clv__clv" && (f[1] != "90" || f[2] != "0") {
			t.Fatalf("clv__clv should differ in all 90 partitions: %q", line)
		}
		// Recomputed with the same rows as prod's: not staged again.
		if len(f) > 3 && (f[0] == "daily_customer_metrics" || f[0] == "clv__raw_orders" || f[0] == "clv__weekly_customer_rollup") {
			t.Fatalf("dev holds a copy of prod's unchanged %s: %q", f[0], line)
		}
	}
	contains(run(0, "env", "diff", demo, "dev", "--product", "clv", "--partition", "2024-02-01", "--rows", "2"), "changed")
	// The change replayed on prod's recorded history: clv differs in the
	// 90 days, daily_customer_metrics in none; nothing is published.
	contains(run(1, "test", demo, "--replay", "clv", "--last", "90", "--expect-unchanged", "daily_customer_metrics", "--expect-unchanged", "clv__clv"),
		"90 changed, 0 failed", "expect unchanged daily_customer_metrics: passed", "expect unchanged clv__clv: FAILED (changed in 90 partitions")
	if got := preview("2024-03-01"); got != old["2024-03-01"] {
		t.Fatal("a replay changed prod")
	}

	// Prod rewrites 2024-02-01 with the old code after dev was built.
	write(string(src))
	run(0, "run", demo, "clv", "--partition", "2024-02-01")
	write(changed)
	out := run(1, "env", "promote", demo, "dev")
	contains(out, "nothing was promoted", "clv__clv 2024-02-01")
	if strings.Contains(out, "2024-03-01") {
		t.Fatalf("the refusal names partitions prod did not change:\n%s", out)
	}
	if got := preview("2024-03-01"); got != old["2024-03-01"] {
		t.Fatal("a refused promote changed prod")
	}

	// Rebuilt over prod's new version there, dev promotes as a whole.
	contains(run(0, "run", demo, "clv", "--partition", "2024-02-01", "--env", "dev"), "staged clv__clv 2024-02-01")
	contains(run(0, "env", "promote", demo, "dev"), "versions are prod's now", "clv__clv: 90 partitions")
	if got := preview("2024-03-01"); got != newMarch {
		t.Fatal("prod does not serve dev's values after the promote")
	}
	if err := json.Unmarshal([]byte(run(0, "env", "list", demo, "--format", "json")), &list); err != nil || len(list) != 1 || list[0].Partitions != 0 {
		t.Fatalf("dev after its promote: %+v %v", list, err)
	}
	contains(run(0, "env", "rollback", demo, "dev"), "rolled back promote env_dev_")
	if got := preview("2024-03-01"); got != old["2024-03-01"] {
		t.Fatal("prod does not serve the old values after the promote's rollback")
	}
	contains(run(1, "env", "rollback", demo, "dev"), "no promote to roll back")

	// dev rebuilds clv 2024-03-02 over prod's daily_customer_metrics (it
	// holds no copy of it: identical); prod then rewrites that upstream
	// alone. dev's clv was computed from a version prod no longer serves:
	// the promote is refused, naming the partition and the upstream.
	contains(run(0, "run", demo, "clv", "--partition", "2024-03-02", "--env", "dev"), "staged clv__clv 2024-03-02")
	metrics := filepath.Join(demo, "blocks", "daily_customer_metrics.sql")
	msrc, err := os.ReadFile(metrics)
	if err != nil {
		t.Fatal(err)
	}
	mchanged := strings.Replace(string(msrc), "round(sum(amount), 2)         AS revenue", "round(sum(amount), 2) + 1     AS revenue", 1)
	if mchanged == string(msrc) {
		t.Fatal("the demo's daily_customer_metrics.sql no longer computes revenue as round(sum(amount), 2)")
	}
	if err := os.WriteFile(metrics, []byte(mchanged), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "backfill", demo, "clv", "--from", "2024-03-02", "--to", "2024-03-02", "--blocks", "daily_customer_metrics", "--reprocess", "all")
	if err := os.WriteFile(metrics, msrc, 0o644); err != nil {
		t.Fatal(err)
	}
	prodMarch := preview("2024-03-02")
	out = run(1, "env", "promote", demo, "dev")
	contains(out, "nothing was promoted", "clv__clv 2024-03-02", "computed from daily_customer_metrics 2024-03-02")
	if got := preview("2024-03-02"); got != prodMarch {
		t.Fatal("a promote refused for a moved upstream changed prod")
	}
	contains(run(0, "env", "discard", demo, "dev"), "discarded")
	contains(run(0, "env", "list", demo), "no environments")
	contains(run(1, "env", "diff", demo, "dev"), "does not exist")
}
