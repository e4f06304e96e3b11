package main

import (
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/remote"
)

// A worker that stops sending heartbeats is lost once; one that says it is
// leaving is not.
func TestLostWorkers(t *testing.T) {
	reg := remote.NewRegistry()
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	reg.Observe(remote.Heartbeat{ID: "a", Host: "h1"}, t0)
	reg.Observe(remote.Heartbeat{ID: "b", Host: "h2"}, t0)
	live, lost := lostWorkers(nil, reg, t0.Add(time.Second))
	if len(live) != 2 || len(lost) != 0 {
		t.Fatalf("at start: live %v lost %v", live, lost)
	}
	// b leaves politely; a goes silent.
	reg.Observe(remote.Heartbeat{ID: "b", Leaving: true}, t0.Add(2*time.Second))
	live, lost = lostWorkers(live, reg, t0.Add(time.Minute))
	if len(live) != 0 || len(lost) != 1 || lost[0].ID != "a" || lost[0].Host != "h1" {
		t.Fatalf("after a minute: live %v lost %v", live, lost)
	}
	// Said once: the next look finds nothing new.
	if _, lost = lostWorkers(live, reg, t0.Add(2*time.Minute)); len(lost) != 0 {
		t.Fatalf("lost again: %v", lost)
	}
}
