package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A control request from another process reaches the run instance it names
// and is acknowledged by it; one for a backfill that is not running is
// refused at once and leaves nothing behind; a stale or expired request is
// never applied to a later run of the same backfill.
func TestControlReachesTheRunningInstance(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	pid := os.Getpid()
	s := spec("2024-01-01", "2024-02-29")
	s.RatePerMin = 300
	st, err := e.eng.Launch(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	id := st.ID
	msg, err := RequestControl(ctx, e.dir, id, "pause", pid, 5*time.Second)
	if err != nil || !strings.Contains(msg, "paused") {
		t.Fatalf("pause: %q %v", msg, err)
	}
	if st, _ := e.eng.Backfill(ctx, id); st.State != StatePaused {
		t.Fatalf("after an acknowledged pause: %s", st.State)
	}
	if _, err := RequestControl(ctx, e.dir, id, "resume", pid, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	// The lock holder is another pid than the one advertised: the
	// instance file is a leftover of a dead process.
	var nr *NotRunningError
	if _, err := RequestControl(ctx, e.dir, id, "cancel", pid+1, time.Second); !errors.As(err, &nr) {
		t.Fatalf("cancel via a pid that does not run it: %v", err)
	}
	// Requests for another instance, or expired, are dropped unapplied.
	dir := controlDir(e.dir, id)
	stale := func(instance string, expires time.Time, action string) {
		r := controlRequest{Backfill: id, Instance: instance, Action: action, Nonce: newNonce(), Expires: expires}
		if err := writeFileAtomic(filepath.Join(dir, r.Nonce+".request.json"), r); err != nil {
			t.Fatal(err)
		}
	}
	var inst controlInstance
	if err := readJSON(filepath.Join(dir, "instance.json"), &inst); err != nil {
		t.Fatal(err)
	}
	stale("1-gone", time.Now().Add(time.Hour), "cancel")
	stale(inst.Instance, time.Now().Add(-time.Second), "pause")
	time.Sleep(600 * time.Millisecond) // two polls
	if st, _ := e.eng.Backfill(ctx, id); st.State != StateRunning {
		t.Fatalf("a stale request was applied: %s", st.State)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.request.json")); len(left) != 0 {
		t.Fatalf("stale requests left: %v", left)
	}
	msg, err = RequestControl(ctx, e.dir, id, "cancel", pid, 5*time.Second)
	if err != nil || !strings.Contains(msg, "cancelled") {
		t.Fatalf("cancel: %q %v", msg, err)
	}
	if st, _ := e.eng.Backfill(ctx, id); st.State != StateCancelled {
		t.Fatalf("after an acknowledged cancel: %s", st.State)
	}

	// Not running now: refused at once, nothing left in the folder.
	for _, action := range ControlActions {
		_, err := RequestControl(ctx, e.dir, id, action, pid, 5*time.Second)
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), "not running") || !strings.Contains(err.Error(), "nothing to "+action) {
			t.Fatalf("%s of a backfill that is not running: %v", action, err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left in %s: %v", dir, left)
	}
	// A request for an earlier instance does not hang the retry.
	stale(inst.Instance, time.Now().Add(time.Hour), "pause")
	if _, err := e.eng.Retry(ctx, id, false); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	f, err := e.eng.Wait(wctx, id)
	if err != nil || f.State != StateSucceeded {
		t.Fatalf("retry after stale requests: %v %+v", err, f)
	}
}

// The legacy layout: a plain file .strata/control/<id> holding "pause".
func TestLegacyControlFileIsDropped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	id := "bf_legacy"
	if err := os.MkdirAll(filepath.Join(e.dir, ".strata", "control"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(controlDir(e.dir, id), []byte("pause"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := advertise(e.dir, controlInstance{Backfill: id, Instance: "x"}); err != nil {
		t.Fatal(err)
	}
	if got := takeRequests(e.dir, id, "x", time.Now()); len(got) != 0 {
		t.Fatalf("legacy request applied: %+v", got)
	}
}
