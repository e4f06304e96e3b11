package launcher

import (
	"context"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// TestEventTriggerFollowsAReviewPromote: a review backfill publishes
// nothing while it runs; its promote is what makes the upstream's new
// versions current, so that is when the downstream must run. The promote
// used to make them current without a publish notice, and the downstream
// week kept data computed from the replaced days.
func TestEventTriggerFollowsAReviewPromote(t *testing.T) {
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

	bf, err := e.eng.Launch(context.Background(), engine.BackfillSpec{Pipeline: "raw", From: "2024-01-01", To: "2024-01-07", Publish: engine.PublishReview})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := e.eng.Wait(context.Background(), bf.ID); err != nil || st.State != engine.StateReview {
		t.Fatalf("review backfill: %v %v", st, err)
	}
	if got := e.versions("weekly__weekly"); len(got) != 0 {
		t.Fatalf("the downstream ran before anything was current upstream: %v", got)
	}
	if _, err := e.eng.PromoteBackfill(context.Background(), bf.ID, engine.PromoteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{"2024-W01:v1"}) })
	runs := e.triggerRuns("weekly", "on-raw")
	if len(runs) != 1 || runs[0].Origin.Upstream == nil || runs[0].Origin.Upstream.By != bf.ID || runs[0].Origin.Upstream.Partitions != 7 {
		t.Fatalf("downstream runs %+v: want one, launched by the 7 days %s promoted", runs, bf.ID)
	}
	// Its rollback replaces them again: the week follows that too.
	if _, err := e.eng.RollbackBackfill(context.Background(), bf.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{"2024-W01:v2"}) })
}
