package launcher

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/triggers"
)

// TestPausedTriggerLaunchesNoQueuedTick: a trigger's ticks wait in its
// queue (catch-up after downtime runs several, one after another) and are
// recorded before they launch. Paused meanwhile, the ones not launched yet
// used to launch anyway, also after a restart: the user who paused a
// catch-up flood watched it go on. They are now recorded as skipped, as a
// tick that comes due while paused is.
func TestPausedTriggerLaunchesNoQueuedTick(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	now := time.Date(2024, 3, 16, 12, 0, 0, 0, loc)
	recordCatchUp(t, e, clock, now)
	if _, err := SetPaused(e.dir, "raw", "nightly", true, now); err != nil {
		t.Fatal(err)
	}

	next := e.loop(clock)
	if err := next.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.idle(next)
	if got := e.versions("raw_events"); len(got) != 0 {
		t.Fatalf("a paused trigger ran its queued ticks: %v", got)
	}
	hist, err := next.store.history(context.Background(), "raw", "nightly", 100)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, f := range hist {
		if f.Action == ActionSkipped && f.WorkID != "" {
			skipped++
		}
	}
	if skipped != 3 {
		t.Fatalf("history %+v: want the 3 queued ticks recorded skipped", hist)
	}
	// Nothing is left to carry on: neither a restart nor a resume runs them.
	if fs, err := next.store.unfinished(context.Background()); err != nil || len(fs) != 0 {
		t.Fatalf("unfinished after the skip: %+v %v", fs, err)
	}
	if _, err := SetPaused(e.dir, "raw", "nightly", false, now); err != nil {
		t.Fatal(err)
	}
	e.step(next)
	if got := e.versions("raw_events"); len(got) != 0 {
		t.Fatalf("the resume ran skipped ticks: %v", got)
	}
}

// recordCatchUp starts the trigger loop at the clock's time, then, at now
// (six days later), records the nightly trigger's three catch-up ticks as
// launched, as a process that stops before it launched them (or whose
// ticks wait behind a long first one) leaves them. It returns the loop
// and the ticks.
func recordCatchUp(t *testing.T, e *env, clock *FakeClock, now time.Time) (*Loop, []Firing) {
	t.Helper()
	l := e.loop(clock)
	e.step(l) // first seen
	clock.Set(now)
	pl := e.eng.Project().Pipelines["raw"]
	tr := pl.Trigger("nightly")
	anchors, err := l.store.anchors(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	plan := triggers.Due(tr.Schedule, anchors[pauseKey("raw", "nightly")], now, tr.CatchUp)
	if len(plan.Run) != 3 {
		t.Fatalf("catch-up plan %+v, want 3 ticks", plan)
	}
	fs := scheduleFirings(pl, tr, plan, now, false)
	if err := l.store.record(context.Background(), fs...); err != nil {
		t.Fatal(err)
	}
	return l, fs
}

// TestPauseThenResumeSkipsTicksQueuedBeforeThePause: the pause covers the
// ticks recorded before it whose work had not launched. A tick queued behind
// a running one used to launch after a quick pause and resume (the queue only
// looked at whether the trigger was paused when the tick's turn came).
func TestPauseThenResumeSkipsTicksQueuedBeforeThePause(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	now := time.Date(2024, 3, 16, 12, 0, 0, 0, loc)
	recordCatchUp(t, e, clock, now)
	clock.Set(now.Add(time.Minute))
	if _, err := SetPaused(e.dir, "raw", "nightly", true, clock.Now()); err != nil {
		t.Fatal(err)
	}
	clock.Set(now.Add(2 * time.Minute))
	if _, err := SetPaused(e.dir, "raw", "nightly", false, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if p, err := Paused(e.dir); err != nil || len(p) != 0 {
		t.Fatalf("after the resume the trigger still reads paused: %v %v", p, err)
	}

	next := e.loop(clock)
	if err := next.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.idle(next)
	if got := e.versions("raw_events"); len(got) != 0 {
		t.Fatalf("ticks queued before a pause launched after the resume: %v", got)
	}
	hist, err := next.store.history(context.Background(), "raw", "nightly", 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range hist {
		if f.WorkID != "" && f.Action != ActionSkipped {
			t.Fatalf("history %+v: want every queued tick recorded skipped", hist)
		}
	}

	// A tick recorded after the resume is not covered: it launches.
	clock.Set(time.Date(2024, 3, 17, 12, 0, 0, 0, loc))
	e.step(next)
	if got := e.versions("raw_events"); len(got) != 1 {
		t.Fatalf("the tick due after the resume: versions %v, want one", got)
	}
}

// TestLoopPauseSkipsQueuedTicksAtOnce: a pause taken through the loop (API,
// websocket) records the queued ticks skipped when it is taken, not when
// their turn comes.
func TestLoopPauseSkipsQueuedTicksAtOnce(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	now := time.Date(2024, 3, 16, 12, 0, 0, 0, loc)
	l, recorded := recordCatchUp(t, e, clock, now)
	var fs []Firing
	for _, f := range recorded {
		if f.Action == ActionLaunched {
			fs = append(fs, f)
		}
	}
	// The ticks wait in the queue (as behind a running first one): the
	// worker is held busy so none starts.
	key := pauseKey("raw", "nightly")
	l.mu.Lock()
	l.queues[key] = &queue{pending: fs, busy: true}
	l.mu.Unlock()
	if err := l.SetPaused("raw", "nightly", true); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	left := len(l.queues[key].pending)
	l.queues[key].busy = false
	l.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d ticks still queued after the pause", left)
	}
	hist, err := l.store.history(context.Background(), "raw", "nightly", 100)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, f := range hist {
		if f.WorkID != "" && f.Action == ActionSkipped {
			skipped++
		}
	}
	if skipped != len(fs) {
		t.Fatalf("history %+v: want the %d queued ticks recorded skipped at the pause", hist, len(fs))
	}
}
