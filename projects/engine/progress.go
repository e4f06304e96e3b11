package engine

import (
	"sync"
	"time"
)

// Progress is a backfill's counts, rate and ETA, as the CLI's progress bar
// and the websocket show them.
type Progress struct {
	BackfillID string        `json:"backfill_id"`
	State      State         `json:"state"`
	Total      int           `json:"total"`
	Done       int           `json:"done"` // succeeded + skipped-as-current
	Succeeded  int           `json:"succeeded"`
	Failed     int           `json:"failed"`
	Running    int           `json:"running"`
	Skipped    int           `json:"skipped"`
	Cancelled  int           `json:"cancelled"`    // with a user's cancel, partitions it kept from starting count too
	Conflicts  int           `json:"conflicts"`    // not made current: newer work was published during the backfill
	Rate       float64       `json:"rate_per_min"` // partitions finished per minute, recent
	ETA        time.Duration `json:"eta"`
	Elapsed    time.Duration `json:"elapsed"`
	Engine     string        `json:"engine,omitempty"` // how the Go blocks run: interp or compiled
}

// rateWindow counts events in a sliding window, for the progress rate.
type rateWindow struct {
	mu     sync.Mutex
	window time.Duration
	times  []time.Time
}

func newRateWindow(w time.Duration) *rateWindow { return &rateWindow{window: w} }

func (r *rateWindow) add(t time.Time) {
	r.mu.Lock()
	r.times = append(r.times, t)
	r.trim(t)
	r.mu.Unlock()
}

func (r *rateWindow) trim(now time.Time) {
	cut := 0
	for cut < len(r.times) && now.Sub(r.times[cut]) > r.window {
		cut++
	}
	r.times = r.times[cut:]
}

// perMinute is the recent rate.
func (r *rateWindow) perMinute(elapsed time.Duration) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.trim(time.Now())
	span := r.window
	if elapsed < span {
		span = elapsed
	}
	if span <= 0 {
		return 0
	}
	return float64(len(r.times)) / span.Minutes()
}

func (b *backfillRun) progress() *Progress {
	// The counts are the log's latest state of each partition (the same
	// tally Backfill makes of the log when no process runs it), not
	// counters of this pass: one source for the CLI, the API and the UI.
	c := b.book.counts()
	p := &Progress{BackfillID: b.id, State: StateRunning, Total: b.t.total + b.t.rollups,
		Succeeded: c[StateSucceeded], Failed: c[StateFailed], Skipped: c[StateSkipped],
		Cancelled: c[StateCancelled], Running: c[StateRunning], Conflicts: c[StateConflict], Elapsed: time.Since(b.start)}
	// A run waiting for the group commit is running, though the log does
	// not say so yet: a paused backfill is not settled until it ended.
	if g := b.group.Load(); g != nil {
		p.Running = max(p.Running, g.inFlight())
	}
	if b.win.Paused() {
		p.State = StatePaused
	}
	p.Done = p.Succeeded + p.Skipped
	p.Engine, _ = b.engine.Load().(string)
	p.Rate = b.finishes.perMinute(p.Elapsed)
	p.ETA = estimateETA(etaInput{Now: time.Now(), Remaining: p.Total - p.Done - p.Failed - p.Cancelled - p.Conflicts,
		Running: p.Running, Observed: p.Rate, PerMin: b.t.spec.RatePerMin, NextStart: b.win.pace.nextStart()})
	return p
}
