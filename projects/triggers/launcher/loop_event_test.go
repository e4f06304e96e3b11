package launcher

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

const upstreamPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`

const weeklyPipeline = `partitions: {interval: week, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: weekly
triggers:
  - id: on-raw
    when: {product: raw_events, changes: new-version}
`

// TestEventTriggerOneBackfillPerUpstreamBackfill: an upstream backfill of
// 21 days yields one downstream backfill of the three weeks they fall in,
// and a rewritten day later re-runs exactly its week, once.
func TestEventTriggerOneBackfillPerUpstreamBackfill(t *testing.T) {
	clock := &RealClock{}
	e := newEnv(t, clock, map[string]string{
		"pipelines/raw.yaml": upstreamPipeline, "blocks/raw.sql": rawBlock,
		"pipelines/weekly.yaml": weeklyPipeline, "blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	})
	l := e.loop(clock)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	defer func() { cancel(); <-done }()

	bf, err := e.eng.Launch(context.Background(), engine.BackfillSpec{Pipeline: "raw", From: "2024-01-01", To: "2024-01-21"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.Wait(context.Background(), bf.ID); err != nil {
		t.Fatal(err)
	}
	want := []string{"2024-W01:v1", "2024-W02:v1", "2024-W03:v1"}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), want) })
	runs := e.triggerRuns("weekly", "on-raw")
	got := partitionsOf(runs)
	sort.Strings(got)
	if !eq(got, []string{"2024-W01", "2024-W02", "2024-W03"}) {
		t.Fatalf("downstream runs %v", got)
	}
	ids := map[string]bool{}
	for _, r := range runs {
		ids[r.BackfillID] = true
		if u := r.Origin.Upstream; u == nil || u.Product != "raw_events" || u.Partitions != 21 || u.By != bf.ID {
			t.Errorf("run %s origin %+v: want the 21 upstream partitions of %s", r.RunID, r.Origin, bf.ID)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("downstream backfills: %v, want one", ids)
	}

	// Rewrite one upstream day: only its week runs again.
	if _, err := e.eng.Run(context.Background(), "raw", "2024-01-10", engine.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	want = []string{"2024-W01:v1", "2024-W02:v2", "2024-W03:v1"}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), want) })
	time.Sleep(300 * time.Millisecond) // several quiet periods: nothing more may run
	if got := e.versions("weekly__weekly"); !eq(got, want) {
		t.Fatalf("after the rewrite: %v, want %v", got, want)
	}
	if n := len(e.triggerRuns("weekly", "on-raw")); n != 4 {
		t.Fatalf("downstream runs in all: %d, want 4", n)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("condition not met within 30s")
}
