package launcher

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// TestEventTriggerFiresAfterTheQuietPeriod: the loop slept until the next
// schedule tick or MaxWait (a minute) and only looked at an upstream
// change once that sleep ended, so the "2 s quiet period" was up to a
// minute in `strata start`. A change now shortens the sleep to its quiet
// period: here the clock moves past the quiet period only, far short of
// MaxWait, and the downstream runs.
func TestEventTriggerFiresAfterTheQuietPeriod(t *testing.T) {
	clock := NewFakeClock(time.Date(2024, 2, 1, 12, 0, 0, 0, time.UTC))
	e := newEnv(t, clock, map[string]string{
		"pipelines/raw.yaml": upstreamPipeline, "blocks/raw.sql": rawBlock,
		"pipelines/weekly.yaml": weeklyPipeline, "blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	})
	const quiet = 2 * time.Second
	l, err := New(context.Background(), Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: quiet, MaxWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	defer func() { cancel(); <-done }()
	// The loop is asleep (its MaxWait timer is set) before the change.
	waitFor(t, func() bool { return clock.waiting(func(at, now time.Time) bool { return at.Sub(now) >= time.Minute }) })

	if res, err := e.eng.Run(context.Background(), "raw", "2024-01-10", engine.RunOptions{}); err != nil || res.State != engine.StateSucceeded {
		t.Fatalf("upstream run: %v %v", res, err)
	}
	// The loop took the change in and sleeps until its quiet period ends.
	waitFor(t, func() bool {
		l.events.mu.Lock()
		n := len(l.events.batches)
		l.events.mu.Unlock()
		return n == 1 && clock.waiting(func(at, now time.Time) bool { return !at.After(now.Add(quiet)) })
	})
	clock.Advance(quiet + time.Millisecond)
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{"2024-W02:v1"}) })
}

// waiting reports whether some sleeper's wake-up time satisfies ok.
func (c *FakeClock) waiting(ok func(at, now time.Time) bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range c.waiters {
		if ok(w.at, c.now) {
			return true
		}
	}
	return false
}
