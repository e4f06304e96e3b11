package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/audit"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/server/auth"
)

// TestAuditTrailRecordsWhoDidWhat: an editor's file save, an operator's
// run and backfill are recorded with their names; the engine records the
// actor on the run and the backfill it was handed ("launched by"); a
// refused request records nothing; GET /audit filters by actor, action and
// since; the file only ever grows.
func TestAuditTrailRecordsWhoDidWhat(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	_, edTok, err := e.srv.users.Add("ed", auth.Editor, "test")
	if err != nil {
		t.Fatal(err)
	}
	_, anaTok, err := e.srv.users.Add("ana", auth.Operator, "test")
	if err != nil {
		t.Fatal(err)
	}
	as := func(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

	if resp, data := e.request("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT 1 AS a"}, as(edTok)...); resp.StatusCode != 200 {
		t.Fatalf("editor save: %d %s", resp.StatusCode, data)
	}
	// An editor may not launch: refused, and not recorded.
	if resp, _ := e.request("POST", "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-01", "to": "2024-03-02"}, as(edTok)...); resp.StatusCode != 403 {
		t.Fatalf("editor launch: %d, want 403", resp.StatusCode)
	}
	resp, data := e.request("POST", "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, as(anaTok)...)
	if resp.StatusCode != 200 {
		t.Fatalf("operator run: %d %s", resp.StatusCode, data)
	}
	var st engine.BackfillStatus
	resp, data = e.request("POST", "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-01", "to": "2024-03-02", "actor": "mallory"}, as(anaTok)...)
	if resp.StatusCode != 201 {
		t.Fatalf("operator backfill: %d %s", resp.StatusCode, data)
	}
	mustDecode(t, data, &st)
	if st.Spec.Actor != "ana" {
		t.Fatalf("backfill records actor %q, want ana (never the body's)", st.Spec.Actor)
	}
	deadline := time.Now().Add(120 * time.Second)
	for !st.State.Final() {
		if time.Now().After(deadline) {
			t.Fatalf("backfill did not finish: %+v", st)
		}
		time.Sleep(200 * time.Millisecond)
		e.call("GET", "/api/v1/backfills/"+st.ID, nil, 200, &st)
	}
	var runs struct {
		Runs []engine.RunSummary `json:"runs"`
	}
	e.call("GET", "/api/v1/runs?pipeline=clv", nil, 200, &runs)
	if len(runs.Runs) < 3 {
		t.Fatalf("runs: %+v", runs.Runs)
	}
	for _, r := range runs.Runs {
		if r.Actor != "ana" {
			t.Errorf("run %s (launched %s) records actor %q, want ana", r.RunID, r.Launched, r.Actor)
		}
	}

	var got struct {
		Entries []audit.Entry `json:"entries"`
	}
	e.call("GET", "/api/v1/audit", nil, 200, &got)
	want := []struct{ actor, action, target string }{
		{"ana", audit.ActionBackfillLaunch, st.ID},
		{"ana", audit.ActionRunLaunch, ""},
		{"ed", audit.ActionFileSave, "daily_customer_metrics"},
	}
	if len(got.Entries) != len(want) {
		t.Fatalf("audit has %d entries, want %d: %+v", len(got.Entries), len(want), got.Entries)
	}
	for i, w := range want {
		g := got.Entries[i]
		if g.Actor != w.actor || g.Action != w.action || (w.target != "" && g.Target != w.target) || g.Pipeline != "clv" || g.Via != "api" {
			t.Errorf("entry %d: %+v, want %s %s %s on clv", i, g, w.actor, w.action, w.target)
		}
	}
	e.call("GET", "/api/v1/audit?actor=ed", nil, 200, &got)
	if len(got.Entries) != 1 || got.Entries[0].Actor != "ed" {
		t.Fatalf("actor=ed: %+v", got.Entries)
	}
	e.call("GET", "/api/v1/audit?action=backfill", nil, 200, &got)
	if len(got.Entries) != 1 || got.Entries[0].Action != audit.ActionBackfillLaunch {
		t.Fatalf("action=backfill: %+v", got.Entries)
	}
	e.call("GET", "/api/v1/audit?since="+url.QueryEscape(time.Now().Add(time.Hour).Format(time.RFC3339)), nil, 200, &got)
	if len(got.Entries) != 0 {
		t.Fatalf("since an hour from now: %+v", got.Entries)
	}
	e.call("GET", "/api/v1/audit?since=yesterday", nil, http.StatusBadRequest, nil)

	// Append-only: a later action adds a line and leaves the others as they were.
	before, err := os.ReadFile(audit.File(e.dir))
	if err != nil {
		t.Fatal(err)
	}
	e.call("POST", "/api/v1/users", map[string]string{"name": "vi", "role": "viewer"}, 201, nil)
	after, _ := os.ReadFile(audit.File(e.dir))
	if len(after) <= len(before) || string(after[:len(before)]) != string(before) {
		t.Fatalf("the audit file was not appended to:\nbefore %s\nafter %s", before, after)
	}
}

func mustDecode(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}
