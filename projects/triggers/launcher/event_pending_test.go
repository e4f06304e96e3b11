package launcher

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// TestUpstreamChangesSurviveARestart: the upstream changes an event trigger
// had not fired for yet were held in memory only, so a server stopped
// while the upstream backfill ran (or within the quiet period) never ran
// the downstream partitions of what was published before the stop: after
// a restart the trigger fired for the rest alone. Seen with strata start:
// an upstream backfill of March stopped after ten days and resumed; the
// downstream ran weeks 11-13 and never 9 and 10.
func TestUpstreamChangesSurviveARestart(t *testing.T) {
	clock := &RealClock{}
	e := newEnv(t, clock, map[string]string{
		"pipelines/raw.yaml": upstreamPipeline, "blocks/raw.sql": rawBlock,
		"pipelines/weekly.yaml": weeklyPipeline, "blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	})
	// The first process: its quiet period never ends before it stops.
	first, err := New(context.Background(), Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: time.Hour, MaxWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- first.Run(ctx) }()
	for _, day := range []string{"2024-01-03", "2024-01-10"} {
		if res, err := e.eng.Run(context.Background(), "raw", day, engine.RunOptions{}); err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("upstream run %s: %v %v", day, res, err)
		}
	}
	waitFor(t, func() bool {
		first.events.mu.Lock()
		defer first.events.mu.Unlock()
		b := first.events.batches[pauseKey("weekly", "on-raw")]
		return b != nil && len(b.keys) == 2
	})
	cancel()
	<-done
	if got := e.versions("weekly__weekly"); len(got) != 0 {
		t.Fatalf("the downstream ran before the restart: %v", got)
	}

	// The next process fires for what the first one had noted.
	next := e.loop(clock)
	ctx, cancel = context.WithCancel(context.Background())
	go func() { done <- next.Run(ctx) }()
	defer func() { cancel(); <-done }()
	want := []string{"2024-W01:v1", "2024-W02:v1"}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), want) })
	runs := e.triggerRuns("weekly", "on-raw")
	if len(runs) != 2 || runs[0].Origin.Upstream == nil || runs[0].Origin.Upstream.Partitions != 2 {
		t.Fatalf("downstream runs %+v: want the two weeks, launched for the two upstream days", runs)
	}
	// Fired once: nothing is left to fire again.
	var n int
	if err := e.wh.DB().QueryRow(`SELECT count(*) FROM _strata.trigger_pending`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d upstream changes still pending after their firing (%v)", n, err)
	}
}
