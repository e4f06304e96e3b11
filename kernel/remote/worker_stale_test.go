package remote

import (
	"testing"
	"time"
)

// A worker is stale once its heartbeats have lapsed for longer than
// staleAfter: exactly at the limit it still counts, a moment after it does
// not. The coordinator's clock decides (Observe stamps At with it).
func TestStale(t *testing.T) {
	now := time.Date(2026, 12, 7, 14, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		want bool
	}{
		{0, false},
		{heartbeatEvery, false},
		{staleAfter, false},
		{staleAfter + time.Millisecond, true},
		{time.Hour, true},
		{-time.Second, false}, // a clock step back is not a lapse
	} {
		if got := Stale(Heartbeat{ID: "w", At: now.Add(-tc.ago)}, now); got != tc.want {
			t.Errorf("heard %s ago: stale %v, want %v", tc.ago, got, tc.want)
		}
	}
	r := NewRegistry()
	r.Observe(Heartbeat{ID: "old", Busy: 3}, now.Add(-staleAfter-time.Second))
	r.Observe(Heartbeat{ID: "new", Busy: 1}, now)
	if live := r.Live(now); len(live) != 1 || live[0].ID != "new" {
		t.Errorf("live at now: %+v, want only new", live)
	}
}
