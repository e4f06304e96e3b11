package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A block whose code changed but whose rows did not, backfilled into dev:
// nothing is staged (its outputs are prod's rows), and dev's next plan
// calls the week current, where it used to plan it stale on every run
// (dev read prod's version, whose code hash is the old code's). Prod, which
// ran none of the new code, still plans it stale; dev holds no pointer and
// no row; changed back to the code that wrote prod's version, dev is
// current too; a discard forgets it.
func TestEnvironmentRemembersCodeThatReproducedItsRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	type plan struct {
		ToRun   int            `json:"to_run"`
		ByState map[string]int `json:"by_state"`
	}
	dry := func(env string) plan {
		t.Helper()
		args := []string{"backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-07", "--reprocess", "stale", "--dry-run", "--format", "json"}
		if env != "" {
			args = append(args, "--env", env)
		}
		var p plan
		if out := run(0, args...); json.Unmarshal([]byte(out), &p) != nil {
			t.Fatalf("dry run: %s", out)
		}
		return p
	}
	run(0, "init", demo, "--demo")
	run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-07")
	run(0, "env", "create", demo, "dev")

	file := filepath.Join(demo, "blocks", "raw_orders", "raw_orders.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Code, not a comment (a comment is not part of the fingerprint).
	if err := os.WriteFile(file, append(append([]byte{}, src...), "\nvar sameRowsAsBefore = 1\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := dry("dev"); p.ToRun != 7 || p.ByState["stale"] != 7 {
		t.Fatalf("changed code: dev should plan the week stale: %+v", p)
	}
	mustContain(t, run(0, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-01-07", "--reprocess", "stale", "--env", "dev"),
		"staged 0 versions into env:dev")
	if p := dry("dev"); p.ToRun != 0 || p.ByState["current"] != 7 {
		t.Fatalf("dev recomputed the week with the new code and got the same rows: its next plan should call it current: %+v", p)
	}
	if p := dry(""); p.ToRun != 7 || p.ByState["stale"] != 7 {
		t.Fatalf("prod ran none of the new code: it should still plan the week stale: %+v", p)
	}
	var list []struct {
		Partitions int
		Rows       int64
	}
	if err := json.Unmarshal([]byte(run(0, "env", "list", demo, "--format", "json")), &list); err != nil || len(list) != 1 || list[0].Partitions != 0 || list[0].Rows != 0 {
		t.Fatalf("dev should hold no pointer and no row of its own: %+v %v", list, err)
	}
	// The code that wrote prod's versions: current, credit or not.
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if p := dry("dev"); p.ToRun != 0 {
		t.Fatalf("changed back, dev should plan nothing: %+v", p)
	}
	if err := os.WriteFile(file, append(append([]byte{}, src...), "\nvar sameRowsAsBefore = 1\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	run(0, "env", "discard", demo, "dev")
	run(0, "env", "create", demo, "dev")
	if p := dry("dev"); p.ToRun != 7 {
		t.Fatalf("a new dev after a discard should not inherit the old one's credits: %+v", p)
	}
}
