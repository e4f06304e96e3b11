package launcher

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/envs"
)

// TestTriggersRunIntoAnEnvironmentThatAsks: a schedule tick runs in prod;
// an environment created with triggers gets a copy of the work staged into
// it (prod's pointer does not move for it), one created without gets
// nothing.
func TestTriggersRunIntoAnEnvironmentThatAsks(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	ctx := context.Background()
	store := envs.New(e.wh, e.eng)
	if _, err := store.Create(ctx, "dev", envs.CreateOptions{Triggers: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Create(ctx, "qa", envs.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	l, err := New(ctx, Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: 50 * time.Millisecond, MaxWait: 100 * time.Millisecond, Into: store.TriggerOwners})
	if err != nil {
		t.Fatal(err)
	}
	e.step(l) // first seen
	clock.Set(time.Date(2024, 3, 9, 2, 30, 0, 0, loc))
	e.step(l)
	if got := e.versions("raw_events"); len(got) != 1 {
		t.Fatalf("prod after the tick: %v, want 2024-03-08 only", got)
	}
	// Prod's backfill of the tick, then its copy into dev under a derived id.
	bs, err := e.eng.Backfills(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prodID string
	for _, b := range bs {
		if b.Spec.Into == "" {
			prodID = b.ID
		}
	}
	if prodID == "" {
		t.Fatalf("no prod backfill among %+v", bs)
	}
	copyID := intoID(prodID, envs.Owner("dev"))
	st, err := e.eng.Wait(ctx, copyID)
	if err != nil {
		t.Fatalf("the copy into dev (%s): %v", copyID, err)
	}
	if st.Spec.Into != envs.Owner("dev") {
		t.Fatalf("the copy into dev: %+v", st)
	}
	// Its end, from the event log: under the frozen test clock every event
	// has the same time, so the status may still show an earlier one.
	var msg string
	if err := e.wh.DB().QueryRow(`SELECT message FROM _strata.backfill_events WHERE backfill_id = ? AND state = 'succeeded'`, copyID).Scan(&msg); err != nil || !strings.Contains(msg, "into env:dev") {
		t.Fatalf("the copy into dev did not end succeeded: %q %v", msg, err)
	}
	if len(bs) > 2 {
		t.Fatalf("backfills: %d, want prod's and dev's copy only", len(bs))
	}
	for name, want := range map[string]int{"dev": 1, "qa": 0} {
		env, err := store.Get(ctx, name)
		if err != nil || env.Partitions != want {
			t.Fatalf("%s holds %+v (%v), want %d partitions", name, env, err, want)
		}
	}
	// Prod's current version is its own run's, not dev's staged one.
	var current, pinned int
	if err := e.wh.DB().QueryRow(`SELECT version FROM _strata.current WHERE product = 'raw_events'`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	if err := e.wh.DB().QueryRow(`SELECT version FROM _strata.pins WHERE owner = 'env:dev'`).Scan(&pinned); err != nil {
		t.Fatal(err)
	}
	var runID string
	if err := e.wh.DB().QueryRow(`SELECT run_id FROM _strata.versions WHERE product = 'raw_events' AND version = ?`, current).Scan(&runID); err != nil {
		t.Fatal(err)
	}
	if current == pinned || !strings.HasPrefix(runID, prodID) {
		t.Fatalf("prod's current v%d (run %s), dev's v%d: dev's copy reached prod", current, runID, pinned)
	}
}

// TestTriggerCopySurvivesACrash: a crash after a firing's copy into dev was
// recorded and before it launched, while prod's work went on to its end;
// on the restart, Resume launches the copy (once), though prod's work
// needs nothing more.
func TestTriggerCopySurvivesACrash(t *testing.T) {
	loc := ny(t)
	clock := NewFakeClock(time.Date(2024, 3, 8, 12, 0, 0, 0, loc))
	e := newEnv(t, clock, map[string]string{"pipelines/raw.yaml": rawPipeline, "blocks/raw.sql": rawBlock})
	ctx := context.Background()
	store := envs.New(e.wh, e.eng)
	if _, err := store.Create(ctx, "dev", envs.CreateOptions{Triggers: true}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: 50 * time.Millisecond, MaxWait: 100 * time.Millisecond, Into: store.TriggerOwners}
	l, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	l.lostCopies = true
	e.step(l) // first seen
	clock.Set(time.Date(2024, 3, 9, 2, 30, 0, 0, loc))
	e.step(l)
	if got := e.versions("raw_events"); len(got) != 1 {
		t.Fatalf("prod after the tick: %v, want 2024-03-08 only", got)
	}
	bs, err := e.eng.Backfills(ctx)
	// e.step waited for prod's backfill to end.
	if err != nil || len(bs) != 1 || bs[0].Spec.Into != "" {
		t.Fatalf("before the restart: %d backfills %v, want prod's only", len(bs), err)
	}
	copyID := intoID(bs[0].ID, envs.Owner("dev"))

	// The restart: a new loop over the same warehouse resumes.
	for range 2 { // twice: the second finds the copy there and starts none
		l2, err := New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := l2.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.eng.Wait(ctx, copyID); err != nil {
			t.Fatalf("the copy into dev (%s) after the restart: %v", copyID, err)
		}
		e.idle(l2)
	}
	// It ran after prod's, over the same data: dev holds nothing of its
	// own (identical outputs are not staged), but the copy ran and ended.
	var msg string
	if err := e.wh.DB().QueryRow(`SELECT message FROM _strata.backfill_events WHERE backfill_id = ? AND state = 'succeeded'`, copyID).Scan(&msg); err != nil || !strings.Contains(msg, "into env:dev") {
		t.Fatalf("the copy into dev did not end succeeded: %q %v", msg, err)
	}
	ids := map[string]bool{}
	bs, _ = e.eng.Backfills(ctx)
	for _, b := range bs {
		ids[b.ID] = true
	}
	if len(ids) != 2 {
		for _, b := range bs {
			t.Log(b.ID, b.Spec.Into, b.State)
		}
		t.Fatalf("backfills: %d, want prod's and one copy", len(bs))
	}
}
