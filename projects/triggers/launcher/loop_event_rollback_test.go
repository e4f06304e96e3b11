package launcher

import (
	"context"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// TestEventTriggerFollowsARollback: rolling an upstream partition back
// makes another version current, so a downstream computed from the one
// replaced no longer matches it. The rollback used to say nothing to event
// triggers, and the downstream week kept data from the rolled-back day.
func TestEventTriggerFollowsARollback(t *testing.T) {
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

	for i, want := range []string{"2024-W02:v1", "2024-W02:v2"} {
		if res, err := e.eng.Run(context.Background(), "raw", "2024-01-10", engine.RunOptions{}); err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("upstream run %d: %v %v", i, res, err)
		}
		waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{want}) })
	}
	if err := e.eng.RollbackProduct(context.Background(), "raw_events", "2024-01-10", 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{"2024-W02:v3"}) })
}
