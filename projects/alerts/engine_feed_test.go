package alerts

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers/launcher"
)

// Each notice the engine publishes maps to the alert kind and the page the
// issue names; a backfill's own runs, a succeeded run and a trigger that
// launched do not alert; a run that starts again re-arms its subject.
func TestNoticesToAlerts(t *testing.T) {
	rcv := newReceiver(t, 0)
	n := open(t, t.TempDir(), settings(rcv.URL, 3, project.WebhookSlack))
	tick := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	ctx := context.Background()
	for _, no := range []engine.Notice{
		{Event: &engine.Event{RunID: "run_1", Pipeline: "clv", Partition: "2024-01-01", State: engine.StateFailed, Error: "boom"}},
		{Event: &engine.Event{RunID: "fresh_clv_2024-01-01_1", Pipeline: "clv", State: engine.StateFailed}},
		{Event: &engine.Event{RunID: "bf_1:2024-01-01", BackfillID: "bf_1", Pipeline: "clv", State: engine.StateFailed}},
		{Event: &engine.Event{RunID: "run_2", Pipeline: "clv", State: engine.StateSucceeded}},
		{Data: &launcher.Firing{Pipeline: "clv", Trigger: "nightly", Tick: tick, Action: launcher.ActionFailed, Detail: "the pipeline has problems"}},
		{Data: &launcher.Firing{Pipeline: "clv", Trigger: "nightly", Tick: tick, Action: launcher.ActionLaunched}},
		{Review: &engine.BackfillReview{Backfill: &engine.BackfillStatus{ID: "bf_2", Pipeline: "clv", State: engine.StateReview},
			Gates: []engine.GateResult{{Name: "rows", Passed: false, Detail: "rows fell 40%"}}}},
		{Review: &engine.BackfillReview{Backfill: &engine.BackfillStatus{ID: "bf_3", Pipeline: "clv", State: engine.StateReview}, GatesPassed: true}},
		// The same failure again, then the run starts again and fails again.
		{Event: &engine.Event{RunID: "run_1", Pipeline: "clv", State: engine.StateFailed}},
		{Event: &engine.Event{RunID: "run_1", Pipeline: "clv", State: engine.StateRunning}},
		{Event: &engine.Event{RunID: "run_1", Pipeline: "clv", State: engine.StateFailed}},
	} {
		if relevant(no) {
			n.observe(ctx, nil, no)
		}
	}
	n.WorkerLost("w1", "host1", "silent")
	ds := waitState(t, n, 6, StateDelivered)
	got := map[string]string{}
	for _, d := range ds {
		got[d.Alert.ID] = d.Alert.Link
	}
	want := map[string]string{
		"run_failed:run_1:1":                            "/runs/run_1",
		"run_failed:run_1:2":                            "/runs/run_1",
		"freshness_failed:fresh_clv_2024-01-01_1:1":     "/runs/fresh_clv_2024-01-01_1",
		"trigger_failed:clv/nightly@20260102T030000Z:1": "/pipelines/clv",
		"check_failed:bf_2:1":                           "/backfills/bf_2",
		"worker_lost:w1:1":                              "/runs?state=failed",
	}
	for id, link := range want {
		if got[id] != "https://strata.example.com"+link {
			t.Errorf("alert %s: link %q, want %s", id, got[id], link)
		}
	}
	if len(got) != len(want) {
		b, _ := json.Marshal(got)
		t.Errorf("alerts %s, want %d", b, len(want))
	}
}
