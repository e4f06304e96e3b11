package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestBlockTestsWhileServing: a data engineer writes block tests while
// `strata start` serves the project and holds its warehouse file.
// sdktest.FromVersion (through `strata test --read`) then reads the stored
// versions through the server's API, with the same wire, byte for byte
// (ints, decimals, timestamps), as the file gives once the server stops.
func TestBlockTestsWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", demo, "--demo")
	srv := strataproc.Start(t, bin, demo, "0123456789abcdef-test")

	// Where the server listens and how a local CLI authenticates: readable
	// by the owner only (it holds the token).
	fi, err := os.Stat(filepath.Join(demo, ".strata", "server.json"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf(".strata/server.json has mode %v, want 0600", fi.Mode().Perm())
	}
	if strings.Contains(srv.Stderr.String(), srv.Token) {
		t.Fatalf("the token is in the server's log:\n%s", srv.Stderr)
	}

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "2024-03-08", "to": "2024-03-10"}`, &launched)
	if st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" }); st.State != "succeeded" {
		t.Fatalf("backfill: %+v", st)
	}
	if err := os.WriteFile(filepath.Join(demo, "blocks", "clv", "clv_test.go"), []byte(clvTest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(0, "test", demo, "-v")
	for _, want := range []string{"--- PASS: TestTransformFromCSV", "--- PASS: TestTransformOnAStoredDay"} {
		if !strings.Contains(out, want) {
			t.Fatalf("strata test while serving lacks %q:\n%s", want, out)
		}
	}
	reads := [][]string{
		{"test", demo, "--read", "daily_customer_metrics", "--partition", "2024-03-10", "--version", "1"},
		{"test", demo, "--read", "clv__clv", "--partition", "2024-03-09"},
		{"test", demo, "--read", "clv__raw_orders", "--partition", "2024-03-10"},
	}
	served := make([]string, len(reads))
	for i, args := range reads {
		served[i] = run(0, args...)
	}
	// Bad input through the server: named, exit 1, the server stays up.
	if out := run(1, "test", demo, "--read", "clv__clv", "--partition", "2024-03-10", "--version", "9"); !strings.Contains(out, "answered 404") || !strings.Contains(out, "9") {
		t.Fatalf("missing version:\n%s", out)
	}
	if out := run(1, "test", demo, "--read", "nope", "--partition", "2024-03-10"); !strings.Contains(out, " 4") || !strings.Contains(out, "nope") {
		t.Fatalf("unknown product:\n%s", out)
	}
	if code, body, err := srv.Request(http.MethodGet, "/products", ""); err != nil || code != http.StatusOK {
		t.Fatalf("the server after bad reads: %d %v %s", code, err, body)
	}
	srv.Stop(t)

	if _, err := os.Stat(filepath.Join(demo, ".strata", "server.json")); !os.IsNotExist(err) {
		t.Fatalf(".strata/server.json outlives the server: %v", err)
	}
	for i, args := range reads {
		if got := run(0, args...); got != served[i] {
			t.Fatalf("strata %s: the file gives\n%s\nthe server gave\n%s", strings.Join(args, " "), got, served[i])
		}
	}
	out = run(0, "test", demo, "-v")
	if !strings.Contains(out, "--- PASS: TestTransformOnAStoredDay") {
		t.Fatalf("strata test with the server stopped:\n%s", out)
	}
}
