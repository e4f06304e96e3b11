package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// The real binary runs the triggers of every pipeline. Its clock is sped up
// 30 times through the hidden STRATA_TRIGGER_CLOCK_SPEED test hook, so a
// per-minute schedule fires every two seconds of real time.
func TestStartRunsTriggers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	files := map[string]string{
		"strata.yaml": "name: e2e\ntimezone: UTC\n",
		"pipelines/ticker.yaml": `partitions: {interval: hour, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: tick
    product: ticks
triggers:
  - id: every-minute
    schedule: {cron: "* * * * *", timezone: Europe/Paris}
    run: current
    catch_up: {max: 5}
`,
		"blocks/tick.sql": "SELECT $partition_key AS hour, now() AS at\n",
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql": "SELECT $partition_key AS day, 1 AS n\n",
		"pipelines/weekly.yaml": `partitions: {interval: week, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: weekly
    product: weekly_events
triggers:
  - id: on-raw
    when: {product: raw_events, changes: new-version}
`,
		"blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("STRATA_TRIGGER_CLOCK_SPEED", "30")
	const token = "0123456789abcdef-test"
	srv := strataproc.Start(t, bin, dir, token)

	// Schedule: two ticks fire, each a run with its trigger and tick recorded.
	// A minute is two seconds here: a loop late by that much on a loaded
	// machine has a missed tick, which catch_up (default 1) would skip and
	// the first two runs would be two minutes apart; catch_up 5 runs it.
	type run struct {
		RunID      string `json:"run_id"`
		BackfillID string `json:"backfill_id"`
		Partition  string `json:"partition"`
		State      string `json:"state"`
		Origin     *struct {
			Trigger  string    `json:"trigger"`
			Tick     time.Time `json:"tick"`
			Upstream *struct {
				Product    string `json:"product"`
				Partitions int    `json:"partitions"`
			} `json:"upstream"`
		} `json:"origin"`
	}
	runs := func(query string) []run {
		var out struct{ Runs []run }
		srv.Call(t, http.MethodGet, "/runs?"+query, "", &out)
		sort.Slice(out.Runs, func(i, j int) bool {
			return out.Runs[i].Partition+out.Runs[i].RunID < out.Runs[j].Partition+out.Runs[j].RunID
		})
		return out.Runs
	}
	succeeded := func(rs []run) int {
		n := 0
		for _, r := range rs {
			if r.State == "succeeded" {
				n++
			}
		}
		return n
	}
	eventually := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 60s\n%s", what, srv.Stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	eventually("two ticks of every-minute", func() bool { return succeeded(runs("pipeline=ticker&origin=trigger:every-minute")) >= 2 })
	ticks := runs("pipeline=ticker&origin=trigger:every-minute")
	var at []time.Time
	for _, r := range ticks {
		if r.Origin == nil || r.Origin.Trigger != "every-minute" || r.Origin.Tick.Second() != 0 {
			t.Fatalf("run %s origin %+v", r.RunID, r.Origin)
		}
		at = append(at, r.Origin.Tick)
	}
	sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
	if at[1].Sub(at[0]) != time.Minute {
		t.Fatalf("ticks %v: want one minute apart", at)
	}
	var parts struct {
		Partitions []struct {
			Key     string `json:"key"`
			Current int    `json:"current"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/products/ticks/partitions", "", &parts)
	versions := 0
	for _, p := range parts.Partitions {
		versions += p.Current
	}
	if versions < 2 {
		t.Fatalf("product ticks: %+v, want a version per tick", parts.Partitions)
	}

	// Pause from the CLI while the server holds the warehouse: ticks are skipped, visibly.
	out, err := exec.Command(bin, "triggers", "pause", dir, "ticker", "every-minute").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "paused") {
		t.Fatalf("strata triggers pause: %v\n%s", err, out)
	}
	var st struct {
		Paused  bool `json:"paused"`
		History []struct {
			Action string `json:"action"`
			Detail string `json:"detail"`
		} `json:"history"`
	}
	eventually("a tick skipped while paused", func() bool {
		srv.Call(t, http.MethodGet, "/pipelines/ticker/triggers/every-minute", "", &st)
		return st.Paused && len(st.History) > 0 && st.History[0].Action == "skipped" && st.History[0].Detail == "paused"
	})
	out, err = exec.Command(bin, "triggers", dir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ticker/every-minute") || !strings.Contains(string(out), "paused since") || !strings.Contains(string(out), "CET") {
		t.Fatalf("strata triggers: %v\n%s", err, out)
	}

	// A trigger added to the file on disk is live without a restart (the
	// server's file watcher reloads the project; the loop follows it).
	ticker := filepath.Join(dir, "pipelines", "ticker.yaml")
	raw, _ := os.ReadFile(ticker)
	if err := os.WriteFile(ticker, append(raw, []byte("  - id: hourly\n    schedule: {cron: \"0 * * * *\"}\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually("the new trigger listed and recorded as seen", func() bool {
		var list struct {
			Triggers []struct {
				ID   string     `json:"id"`
				Next []struct{} `json:"next"`
			} `json:"triggers"`
		}
		srv.Call(t, http.MethodGet, "/pipelines/ticker/triggers", "", &list)
		return len(list.Triggers) == 2 && list.Triggers[1].ID == "hourly" && len(list.Triggers[1].Next) > 0
	})

	// Event: a 21-day upstream backfill yields one downstream backfill of its 3 weeks.
	var bf struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "raw", "from": "2024-01-01", "to": "2024-01-21"}`, &bf)
	srv.WaitFor(t, bf.ID, func(p strataproc.Progress) bool { return p.State == "succeeded" })
	eventually("3 weekly runs", func() bool { return succeeded(runs("pipeline=weekly&origin=trigger:on-raw")) == 3 })
	weekly := runs("pipeline=weekly&origin=trigger:on-raw")
	ids := map[string]bool{}
	var keys []string
	for _, r := range weekly {
		ids[r.BackfillID] = true
		keys = append(keys, r.Partition)
		if r.Origin == nil || r.Origin.Upstream == nil || r.Origin.Upstream.Partitions != 21 {
			t.Fatalf("weekly run origin %+v", r.Origin)
		}
	}
	if strings.Join(keys, ",") != "2024-W01,2024-W02,2024-W03" || len(ids) != 1 {
		t.Fatalf("weekly runs %v in backfills %v: want W01..W03 in one", keys, ids)
	}

	// Rewrite one upstream day: exactly its week runs again, once.
	var res struct {
		State string `json:"state"`
	}
	srv.Call(t, http.MethodPost, "/pipelines/raw/runs?wait=true", `{"partition": "2024-01-10"}`, &res)
	if res.State != "succeeded" {
		t.Fatalf("upstream rewrite: %+v", res)
	}
	eventually("the rewritten day's week", func() bool { return succeeded(runs("pipeline=weekly&origin=trigger:on-raw")) == 4 })
	time.Sleep(time.Second) // many quiet periods at 30x: nothing else may run
	weekly = runs("pipeline=weekly")
	count := map[string]int{}
	for _, r := range weekly {
		count[r.Partition]++
	}
	if count["2024-W01"] != 1 || count["2024-W02"] != 2 || count["2024-W03"] != 1 || len(weekly) != 4 {
		t.Fatalf("weekly runs per partition: %v", count)
	}
	srv.Stop(t)

	// With the server stopped the CLI reads the warehouse itself: last firings and outcomes.
	out, err = exec.Command(bin, "triggers", dir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "weekly/on-raw") || !strings.Contains(string(out), "launched evt_weekly_on-raw_") || !strings.Contains(string(out), "succeeded") {
		t.Fatalf("strata triggers (server stopped): %v\n%s", err, out)
	}
	out, err = exec.Command(bin, "triggers", "preview", dir, "ticker", "every-minute", "--from", "2024-03-31T01:58", "--to", "2024-03-31T03:01").CombinedOutput()
	// Europe/Paris springs forward at 02:00 on 2024-03-31: a per-minute schedule keeps its rhythm
	// in elapsed time, so 01:58, 01:59, 03:00 CEST, 03:01 (one minute apart each).
	if err != nil || !strings.Contains(string(out), "2024-03-31 01:59 CET") || !strings.Contains(string(out), "2024-03-31 03:00 CEST") || !strings.Contains(string(out), "\n4 ticks") {
		t.Fatalf("strata triggers preview: %v\n%s", err, out)
	}
}
