package launcher

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// TestEventBatchTakesTheChangesAlreadyQueued: the loop flushed a batch
// whose quiet period had passed without first reading the publications
// already waiting in its subscription. Under load `strata start` fired a
// 21-day upstream backfill's downstream with 20 days (the backfill had
// ended, its last publication was still queued), then fired again for the
// last day: a second downstream backfill and a week computed twice
// (TestStartRunsTriggers failed once so). Here the loop is held at the start
// of the step after the quiet period while a second change is published;
// both changes must go out as one firing.
func TestEventBatchTakesTheChangesAlreadyQueued(t *testing.T) {
	fake := NewFakeClock(time.Date(2024, 2, 1, 12, 0, 0, 0, time.UTC))
	e := newEnv(t, fake, map[string]string{
		"pipelines/raw.yaml": upstreamPipeline, "blocks/raw.sql": rawBlock,
		"pipelines/weekly.yaml": weeklyPipeline, "blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	})
	clock := &gateClock{FakeClock: fake}
	const quiet = 2 * time.Second
	l, err := New(context.Background(), Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: quiet, MaxWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, func() bool { return fake.waiting(func(at, now time.Time) bool { return at.Sub(now) >= time.Minute }) })

	upstream := func(day string) {
		t.Helper()
		if res, err := e.eng.Run(context.Background(), "raw", day, engine.RunOptions{}); err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("upstream run %s: %v %v", day, res, err)
		}
	}
	upstream("2024-01-08")
	waitFor(t, func() bool {
		l.events.mu.Lock()
		n := len(l.events.batches)
		l.events.mu.Unlock()
		return n == 1 && fake.waiting(func(at, now time.Time) bool { return !at.After(now.Add(quiet)) })
	})
	// The quiet period ends; the loop wakes and is held before it reads the
	// clock, while the same week's second day is published.
	entered, release := clock.hold()
	fake.Advance(quiet + time.Millisecond)
	<-entered
	upstream("2024-01-10")
	release()
	// A quiet period after the second change, the batch fires.
	waitFor(t, func() bool {
		return fake.waiting(func(at, now time.Time) bool { return !at.After(now.Add(quiet)) }) || len(e.triggerRuns("weekly", "on-raw")) > 0
	})
	fake.Advance(quiet + time.Millisecond)
	waitFor(t, func() bool { return eq(e.versions("weekly__weekly"), []string{"2024-W02:v1"}) })
	e.idle(l)
	runs := e.triggerRuns("weekly", "on-raw")
	for _, r := range runs {
		if r.Origin == nil || r.Origin.Upstream == nil || r.Origin.Upstream.Partitions != 2 {
			t.Fatalf("downstream run %s %s from upstream %+v: want one firing for both upstream days", r.RunID, r.Partition, r.Origin.Upstream)
		}
	}
	if len(runs) != 1 {
		t.Fatalf("downstream runs %v: want one", partitionsOf(runs))
	}
}

// gateClock is a FakeClock whose next Now, once held, waits for release:
// it stops the loop at a chosen point without a sleep.
type gateClock struct {
	*FakeClock
	mu      sync.Mutex
	entered chan struct{}
	gate    chan struct{}
}

// hold makes the next Now signal entered and wait until release is called.
func (c *gateClock) hold() (entered <-chan struct{}, release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entered, c.gate = make(chan struct{}), make(chan struct{})
	gate := c.gate
	return c.entered, func() { close(gate) }
}

func (c *gateClock) Now() time.Time {
	c.mu.Lock()
	entered, gate := c.entered, c.gate
	c.entered, c.gate = nil, nil
	c.mu.Unlock()
	if entered != nil {
		close(entered)
		<-gate
	}
	return c.FakeClock.Now()
}
