package engine

import (
	"context"
	"sync"
	"time"
)

// window is the one fan-out mechanism behind dynamic blocks (items are a
// parent's rows) and backfills (items are partitions): a producer starts
// items in order, at most n in flight, optionally no more than perMin a
// minute, and not while paused. Each item runs in a goroutine the window
// owns, so 100,000 items are never 100,000 goroutines, and Wait returns
// when every started item is done.
type window struct {
	slots chan struct{}
	pace  *pacer
	wg    sync.WaitGroup

	mu      sync.Mutex
	paused  bool
	unpause chan struct{}
}

func newWindow(n int, perMin float64) *window {
	if n < 1 {
		n = 1
	}
	return &window{slots: make(chan struct{}, n), pace: newPacer(perMin), unpause: make(chan struct{})}
}

// Go waits for the pause gate, the pace (when paced) and a free slot, then
// runs item in a goroutine; then runs after the slot is freed (a backfill
// starts a week's rollup there, which may need a slot itself). It returns
// false, starting nothing, when ctx ends first.
func (w *window) Go(ctx context.Context, paced bool, item, then func()) bool {
	return w.GoReleasing(ctx, paced, func(func()) { item() }, then)
}

// GoReleasing is Go for an item that may give its slot back before it
// returns (release, idempotent): a backfill's run once its publish is
// handed to its group's transaction, which it then waits for, computing
// nothing (backfill_group_commit.go). then still runs after item returns.
func (w *window) GoReleasing(ctx context.Context, paced bool, item func(release func()), then func()) bool {
	for {
		if !w.waitUnpaused(ctx) {
			return false
		}
		select {
		case w.slots <- struct{}{}:
		case <-ctx.Done():
			return false
		}
		// The pace is waited for with the slot held, so that its clock
		// starts when the item does: waited for first, an item that then
		// waited for a slot let the next one start with it, two at once
		// under a rate that allows one.
		if paced && !w.pace.wait(ctx) {
			<-w.slots
			return false
		}
		if !w.Paused() {
			break
		}
		<-w.slots // paused while waiting for the slot: nothing starts after a pause
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		release := sync.OnceFunc(func() { <-w.slots })
		item(release)
		release()
		if then != nil {
			then()
		}
	}()
	return true
}

// Wait blocks until every started item (and its then) has returned.
func (w *window) Wait() { w.wg.Wait() }

// Pause holds new items back; running ones finish.
func (w *window) Pause() {
	w.mu.Lock()
	if !w.paused {
		w.paused = true
		w.unpause = make(chan struct{})
	}
	w.mu.Unlock()
}

// Resume lets new items start again.
func (w *window) Resume() {
	w.mu.Lock()
	if w.paused {
		w.paused = false
		close(w.unpause)
	}
	w.mu.Unlock()
}

// Paused reports whether the window holds items back.
func (w *window) Paused() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.paused
}

func (w *window) waitUnpaused(ctx context.Context) bool {
	for {
		w.mu.Lock()
		paused, ch := w.paused, w.unpause
		w.mu.Unlock()
		if !paused {
			return ctx.Err() == nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// pacer spaces starts to a rate per minute.
type pacer struct {
	every time.Duration
	mu    sync.Mutex // next is read by progress while wait moves it
	next  time.Time
}

func newPacer(perMin float64) *pacer {
	if perMin <= 0 {
		return &pacer{}
	}
	return &pacer{every: time.Duration(float64(time.Minute) / perMin)}
}

func (p *pacer) wait(ctx context.Context) bool {
	if p.every == 0 {
		return ctx.Err() == nil
	}
	now, next := time.Now(), p.nextStart()
	if next.After(now) {
		select {
		case <-time.After(next.Sub(now)):
		case <-ctx.Done():
			return false
		}
		now = next
	}
	p.mu.Lock()
	p.next = now.Add(p.every)
	p.mu.Unlock()
	return true
}

// nextStart is when the pace lets the next item start (zero: at once).
func (p *pacer) nextStart() time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.next
}
