package launcher

import (
	"sync"
	"time"
)

// Clock is the loop's time source. The server uses the wall clock; tests
// drive a FakeClock through DST nights and downtime without sleeping.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock, optionally sped up: Speed 60 makes a minute
// pass every second (the end-to-end tests' hidden STRATA_TRIGGER_CLOCK_SPEED).
type RealClock struct {
	Speed float64 // 0 or 1: real time
	start time.Time
	once  sync.Once
}

// Now is the clock's time: real time, or real time sped up since the first call.
func (c *RealClock) Now() time.Time {
	if c.Speed <= 1 {
		return time.Now()
	}
	c.once.Do(func() { c.start = time.Now() })
	elapsed := time.Since(c.start)
	return c.start.Add(time.Duration(float64(elapsed) * c.Speed))
}

// After waits d of the clock's time.
func (c *RealClock) After(d time.Duration) <-chan time.Time {
	if c.Speed > 1 {
		d = time.Duration(float64(d) / c.Speed)
	}
	return time.After(d)
}

// FakeClock is a clock that moves only when told to.
type FakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

// NewFakeClock returns a clock reading now.
func NewFakeClock(now time.Time) *FakeClock { return &FakeClock{now: now} }

// Now reads the clock.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After fires when Set or Advance moves the clock past now+d.
func (c *FakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	at := c.now.Add(d)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{at, ch})
	return ch
}

// Set moves the clock to t (forward or back) and fires the waiters it passed.
func (c *FakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(t) {
			w.ch <- t
			continue
		}
		kept = append(kept, w)
	}
	c.waiters = kept
}

// Advance moves the clock forward by d.
func (c *FakeClock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }
