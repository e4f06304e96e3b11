package engine

import (
	"testing"
	"time"
)

// TestEstimateETA: the ETA used only the recent finish rate, so a paced
// backfill (--rate 2/m) whose first partitions finished within seconds of
// each other showed an ETA of a minute for 100 partitions that the pace
// spreads over 50. The pace bounds it: the last waiting partition cannot
// start before the pace allows it.
func TestEstimateETA(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		in   etaInput
		want time.Duration
	}{
		{"nothing left", etaInput{Now: now, Remaining: 0, Observed: 10}, 0},
		{"unpaced, no rate yet", etaInput{Now: now, Remaining: 10}, 0},
		{"unpaced: the observed rate", etaInput{Now: now, Remaining: 30, Observed: 10}, 3 * time.Minute},
		{"paced, bursting: the pace", etaInput{Now: now, Remaining: 100, Observed: 60, PerMin: 2, NextStart: now.Add(20 * time.Second)},
			20*time.Second + 99*30*time.Second},
		{"paced, before the first finish", etaInput{Now: now, Remaining: 11, Running: 1, PerMin: 1, NextStart: now.Add(time.Minute)},
			10 * time.Minute},
		{"paced, next start overdue", etaInput{Now: now, Remaining: 4, PerMin: 6, NextStart: now.Add(-time.Hour)},
			30 * time.Second},
		{"paced, slower than the pace: the observed rate", etaInput{Now: now, Remaining: 10, Observed: 1, PerMin: 60, NextStart: now},
			10 * time.Minute},
		{"paced, all started: the observed rate", etaInput{Now: now, Remaining: 2, Running: 2, Observed: 4, PerMin: 1, NextStart: now.Add(time.Minute)},
			30 * time.Second},
	} {
		if got := estimateETA(c.in); got != c.want {
			t.Errorf("%s: ETA %v, want %v", c.name, got, c.want)
		}
	}
}
