package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestUsersThroughTheBinary: `strata users add` prints a token once; the
// running server accepts it at once with its role (viewer reads, is
// refused a launch; operator launches); `strata audit` reads who launched
// while the server runs; `strata users revoke` ends a token on its next
// request; `strata users list` never shows a token or its hash.
func TestUsersThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", demo, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	tokenLine := regexp.MustCompile(`(?m)^[0-9a-f]{64}$`)
	add := func(name, role string) string {
		t.Helper()
		out, code := strataproc.Run(t, bin, "users", "add", name, "--role", role, "--dir", demo)
		tok := tokenLine.FindString(out)
		if code != 0 || tok == "" {
			t.Fatalf("users add %s: exit %d\n%s", name, code, out)
		}
		return tok
	}
	anaTok := add("ana", "viewer")
	if out, code := strataproc.Run(t, bin, "users", "add", "ana", "--role", "viewer", "--dir", demo); code == 0 || !strings.Contains(out, "already a user") {
		t.Fatalf("adding ana twice: exit %d\n%s", code, out)
	}
	if out, code := strataproc.Run(t, bin, "users", "add", "bo", "--role", "boss", "--dir", demo); code == 0 || !strings.Contains(out, "want viewer, editor, operator or admin") {
		t.Fatalf("a bad role: exit %d\n%s", code, out)
	}

	srv := strataproc.Start(t, bin, demo, "0123456789abcdef-test")
	as := func(tok string) *strataproc.Server { c := *srv; c.Token = tok; return &c }
	var me struct {
		Name string `json:"name"`
		Role string `json:"role"`
	}
	as(anaTok).Call(t, http.MethodGet, "/me", "", &me)
	if me.Name != "ana" || me.Role != "viewer" {
		t.Fatalf("me as ana: %+v", me)
	}
	launch := `{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-02"}`
	if status, data, err := as(anaTok).Request(http.MethodPost, "/backfills", launch); err != nil || status != http.StatusForbidden {
		t.Fatalf("a viewer's launch: %d %s %v", status, data, err)
	}
	// Added while the server runs: accepted at once.
	opTok := add("op", "operator")
	var launched struct {
		ID   string `json:"id"`
		Spec struct {
			Actor string `json:"actor"`
		} `json:"spec"`
	}
	as(opTok).Call(t, http.MethodPost, "/backfills", launch, &launched)
	if launched.Spec.Actor != "op" {
		t.Fatalf("the backfill records actor %q, want op", launched.Spec.Actor)
	}
	out, code := strataproc.Run(t, bin, "audit", demo, "--actor", "op")
	if code != 0 || !strings.Contains(out, "backfill.launch") || !strings.Contains(out, launched.ID) {
		t.Fatalf("strata audit while the server runs: exit %d\n%s", code, out)
	}

	if out, code := strataproc.Run(t, bin, "users", "revoke", "ana", "--dir", demo); code != 0 {
		t.Fatalf("revoke: %s", out)
	}
	if status, _, _ := as(anaTok).Request(http.MethodGet, "/me", ""); status != http.StatusUnauthorized {
		t.Fatalf("a revoked token: %d, want 401", status)
	}
	out, code = strataproc.Run(t, bin, "users", "list", "--dir", demo)
	if code != 0 || !strings.Contains(out, "revoked") || !strings.Contains(out, "op") || strings.Contains(out, opTok) || strings.Contains(out, anaTok) {
		t.Fatalf("users list: exit %d\n%s", code, out)
	}
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	srv.Stop(t)
	// The CLI says who launched it.
	if out, code := strataproc.Run(t, bin, "backfill", "status", demo, launched.ID); code != 0 || !strings.Contains(out, "launched by op") {
		t.Fatalf("backfill status: exit %d\n%s", code, out)
	}
}

// TestAlertDeadLetterThroughTheBinary: `strata start --log-format json`
// with an alert webhook nobody answers: a failed backfill's alert becomes a
// dead letter after its one attempt, listed by GET /alerts?state=dead, and
// the log line saying so is JSON naming the delivery.
func TestAlertDeadLetterThroughTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", demo, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	t.Setenv("STRATA_TEST_HOOK_SECRET", "k3y")
	yml, err := os.ReadFile(filepath.Join(demo, "strata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	yml = append(yml, []byte("\nalerts:\n  attempts: 1\n  webhooks:\n    - name: nobody\n      url: http://127.0.0.1:1/hook\n      secret_env: STRATA_TEST_HOOK_SECRET\n")...)
	if err := os.WriteFile(filepath.Join(demo, "strata.yaml"), yml, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(demo, "blocks", "daily_customer_metrics.sql"), []byte("SELECT * FROM no_such_table"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := strataproc.Start(t, bin, demo, "0123456789abcdef-test", "--log-format", "json")
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-02"}`, &launched)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	if st.State != "failed" {
		t.Fatalf("backfill %+v, want failed", st)
	}
	var dead struct {
		Deliveries []struct {
			Delivery string `json:"delivery"`
			State    string `json:"state"`
			Attempts int    `json:"attempts"`
		} `json:"deliveries"`
	}
	deadline := time.Now().Add(time.Minute)
	for len(dead.Deliveries) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no dead letter")
		}
		time.Sleep(100 * time.Millisecond)
		srv.Call(t, http.MethodGet, "/alerts?state=dead", "", &dead)
	}
	want := "backfill_failed:" + launched.ID + ":1>nobody"
	if d := dead.Deliveries[0]; d.Delivery != want || d.Attempts != 1 {
		t.Fatalf("dead letter %+v, want %s after 1 attempt", d, want)
	}
	srv.Stop(t)
	found := false
	for _, line := range strings.Split(srv.Stderr.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && strings.Contains(fmt.Sprint(rec["msg"]), "gave up") && rec["delivery"] == want && rec["level"] == "ERROR" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no JSON log line for the dead letter in:\n%s", srv.Stderr)
	}
}
