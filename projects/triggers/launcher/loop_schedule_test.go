package launcher

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

const rawPipeline = `partitions: {interval: day, timezone: America/New_York, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
triggers:
  - id: nightly
    schedule: {cron: "30 2 * * *", timezone: America/New_York}
    run: latest-complete
    catch_up: {max: 3}
`

const rawBlock = "SELECT $partition_key AS day, 1 AS n\n"

func ny(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestScheduleLoopDSTDowntimeCatchUp drives the real loop, engine and
// warehouse with a fake clock: a normal night, the spring-forward night
// whose 02:30 does not exist, then six days of downtime with catch_up.max 3.
func TestScheduleLoopDSTDowntimeCatchUp(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	l := e.loop(clock)
	e.step(l) // first seen: ticks count from here, nothing runs
	if got := e.versions("raw_events"); len(got) != 0 {
		t.Fatalf("first step ran %v", got)
	}

	clock.Set(time.Date(2024, 3, 9, 2, 30, 0, 0, loc))
	e.step(l)
	e.step(l) // the same tick again: recorded, not repeated
	if got, want := e.versions("raw_events"), []string{"2024-03-08:v1"}; !eq(got, want) {
		t.Fatalf("after the 03-09 tick: %v, want %v", got, want)
	}

	// Spring forward: 02:30 on 03-10 is skipped; the tick fires at 03:00 EDT, once.
	clock.Set(time.Date(2024, 3, 10, 1, 59, 0, 0, loc)) // a minute before the jump
	e.step(l)
	if got := e.versions("raw_events"); len(got) != 1 {
		t.Fatalf("fired before 03:00 EDT: %v", got)
	}
	clock.Set(time.Date(2024, 3, 10, 3, 0, 0, 0, loc))
	e.step(l)
	clock.Set(time.Date(2024, 3, 10, 3, 45, 0, 0, loc))
	e.step(l)
	if got, want := e.versions("raw_events"), []string{"2024-03-08:v1", "2024-03-09:v1"}; !eq(got, want) {
		t.Fatalf("after the spring-forward night: %v, want %v", got, want)
	}

	// Downtime: a new loop (a restart) six days later runs the 3 latest missed ticks, oldest first.
	clock.Set(time.Date(2024, 3, 16, 12, 0, 0, 0, loc))
	l2 := e.loop(clock)
	e.step(l2)
	e.step(l2)
	want := []string{"2024-03-08:v1", "2024-03-09:v1", "2024-03-13:v1", "2024-03-14:v1", "2024-03-15:v1"}
	if got := e.versions("raw_events"); !eq(got, want) {
		t.Fatalf("after downtime: %v, want %v", got, want)
	}
	runs := e.triggerRuns("raw", "nightly")
	if got := partitionsOf(runs); !eq(got, []string{"2024-03-08", "2024-03-09", "2024-03-13", "2024-03-14", "2024-03-15"}) {
		t.Fatalf("trigger runs, oldest first: %v", got)
	}
	wantTicks := []string{"2024-03-09T07:30:00Z", "2024-03-10T07:00:00Z", "2024-03-14T06:30:00Z", "2024-03-15T06:30:00Z", "2024-03-16T06:30:00Z"}
	for i, r := range runs {
		if r.Origin == nil || r.Origin.Trigger != "nightly" || r.Origin.Tick.Format(time.RFC3339) != wantTicks[i] {
			t.Errorf("run %s origin %+v, want nightly @ %s", r.RunID, r.Origin, wantTicks[i])
		}
	}
	// Trigger work runs a pinned pipeline version, like any backfill: the
	// backfill and every version it published record the snapshot.
	st, err := e.eng.Backfill(context.Background(), runs[0].BackfillID)
	if err != nil || st.Snapshot == "" {
		t.Fatalf("backfill of the first tick: %+v %v, want a snapshot", st, err)
	}
	var unpinned int
	if err := e.wh.DB().QueryRow(`SELECT count(*) FILTER (WHERE coalesce(snapshot, '') = '') FROM _strata.versions WHERE starts_with(run_id, 'trg_')`).Scan(&unpinned); err != nil || unpinned != 0 {
		t.Fatalf("versions without a snapshot: %d %v", unpinned, err)
	}
	// The skipped ticks are visible, as one record.
	h, err := l2.History(context.Background(), "raw", "nightly", 50)
	if err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for _, f := range h {
		if f.Action == ActionSkipped {
			skipped += f.Skipped
		}
	}
	if skipped != 3 {
		t.Errorf("skipped ticks recorded: %d, want 3 (03-11, 03-12, 03-13): %+v", skipped, h)
	}
	if manual, _ := e.eng.Runs(context.Background(), engine.RunFilter{Pipeline: "raw", Origin: "manual"}); len(manual) != 0 {
		t.Errorf("manual runs: %v", manual)
	}
}

// TestScheduleFallBackFiresOnce: 01:30 happens twice on 2024-11-03 in New
// York; the trigger fires at the first only.
func TestScheduleFallBackFiresOnce(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 11, 2, 12, 0, 0, 0, loc))
	pl := `partitions: {interval: hour, timezone: America/New_York, start: "2024-11-01"}
blocks:
  - id: raw
    product: raw_hours
triggers:
  - id: early
    schedule: {cron: "30 1 * * *"}
`
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": pl, "blocks/raw.sql": rawBlock})
	l := e.loop(clock)
	e.step(l)
	first := time.Date(2024, 11, 3, 5, 30, 0, 0, time.UTC) // 01:30 EDT
	for _, at := range []time.Time{first, first.Add(30 * time.Minute), first.Add(time.Hour) /* 01:30 EST */, first.Add(90 * time.Minute)} {
		clock.Set(at)
		e.step(l)
	}
	runs := e.triggerRuns("raw", "early")
	if len(runs) != 1 || runs[0].Partition != "2024-11-03T00" {
		t.Fatalf("fall-back night: runs %v, want one run of the hour before the first 01:30", partitionsOf(runs))
	}
}

// TestTickIntentSurvivesACrash: a tick recorded but never launched (the
// process died in between) is launched by the next start, once; the one
// after that finds it done.
func TestTickIntentSurvivesACrash(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 9, 2, 30, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	l := e.loop(clock)
	pl, _ := e.eng.Pipeline("raw")
	fs := scheduleFirings(pl, pl.Trigger("nightly"), planOf(clock.Now()), clock.Now(), false)
	if err := l.store.record(context.Background(), fs...); err != nil { // ...and the process dies here
		t.Fatal(err)
	}
	for range 2 { // two restarts
		l := e.loop(clock)
		if err := l.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.idle(l)
		e.step(l) // the tick is recorded: the step does not fire it again
	}
	if got, want := e.versions("raw_events"), []string{"2024-03-08:v1"}; !eq(got, want) {
		t.Fatalf("after two restarts: %v, want %v", got, want)
	}
	if runs := e.triggerRuns("raw", "nightly"); len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
}

// TestUnpartitionedPipelineTicks: a pipeline without partitions runs its one
// partition per tick as a run under the tick's id (backfills need a range),
// and the API fires it too.
func TestUnpartitionedPipelineTicks(t *testing.T) {
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, time.UTC))
	pl := `blocks:
  - id: snap
    product: snapshot
triggers:
  - id: hourly
    schedule: {cron: "0 * * * *"}
  - id: hook
    api: true
`
	e := newEnv(t, clock, map[string]string{"pipelines/snap.yaml": pl, "blocks/snap.sql": "SELECT 1 AS x\n"})
	l := e.loop(clock)
	e.step(l)
	clock.Set(time.Date(2024, 3, 8, 13, 0, 0, 0, time.UTC))
	e.step(l)
	e.step(l)
	if got := e.versions("snapshot"); !eq(got, []string{"all:v1"}) {
		t.Fatalf("after one tick: %v", got)
	}
	runs := e.triggerRuns("snap", "hourly")
	if len(runs) != 1 || runs[0].RunID != "trg_snap_hourly_20240308T130000Z" || runs[0].BackfillID != "" {
		t.Fatalf("tick runs: %+v", runs)
	}
	f, err := l.Fire(context.Background(), "snap", "hook", FireRequest{})
	if err != nil || f.WorkKind != WorkRun {
		t.Fatalf("fire: %+v %v", f, err)
	}
	waitFor(t, func() bool { return eq(e.versions("snapshot"), []string{"all:v2"}) })
	l.wg.Wait()
}
