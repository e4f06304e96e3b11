package launcher

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/project"
)

// TestOneRowPerTick: a tick is recorded "launched" before its work starts
// (intent first), and a second row follows when it does not start after
// all: skipped because its trigger was paused meanwhile, or failed because
// the engine refused it. The history (the API's, the UI's trigger panel,
// strata triggers) listed both, so one tick read as "launched" and
// "skipped" at once, and its "last firing" could be either. It now lists
// one row per tick, in its final state.
func TestOneRowPerTick(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	now := time.Date(2024, 3, 16, 12, 0, 0, 0, loc)
	l, fs := recordCatchUp(t, e, clock, now)
	// One more tick whose launch the engine refuses (a window that has not
	// started): recorded launched, then failed.
	bad := Firing{Pipeline: "raw", Trigger: "nightly", Source: project.TriggerAPI, Tick: now.Add(time.Minute), RecordedAt: now,
		Action: ActionLaunched, WorkID: "bf_refused_tick", WorkKind: WorkBackfill, From: "2031-01-01", To: "2031-01-02"}
	if err := l.store.record(context.Background(), bad); err != nil {
		t.Fatal(err)
	}
	if _, err := SetPaused(e.dir, "raw", "nightly", true, now); err != nil {
		t.Fatal(err)
	}
	next := e.loop(clock)
	if err := next.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.idle(next)

	sts, err := List(context.Background(), e.eng.Project(), e.wh.DB(), "raw", now, 0, 100)
	if err != nil || len(sts) != 1 {
		t.Fatalf("trigger status: %+v %v", sts, err)
	}
	rows := map[string][]string{}
	for _, f := range sts[0].History {
		rows[f.WorkID] = append(rows[f.WorkID], f.Action)
	}
	for _, f := range fs {
		if f.WorkID == "" {
			continue
		}
		if got := rows[f.WorkID]; len(got) != 1 || got[0] != ActionSkipped {
			t.Errorf("tick %s (%s): rows %v, want one, skipped", f.Tick.Format(time.RFC3339), f.WorkID, got)
		}
	}
	if got := rows[bad.WorkID]; len(got) != 1 || got[0] != ActionFailed {
		t.Errorf("refused tick: rows %v, want one, failed", got)
	}
	if last := sts[0].Last; last == nil || last.Action != ActionFailed || last.WorkID != bad.WorkID {
		t.Errorf("last firing %+v, want the refused tick, failed", last)
	}
}
