package engine

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A paced window never starts two items closer than its interval, also
// when the next item waited for a slot: two slots freed together used to
// start the item that had waited and the one after it at once.
func TestPaceSpacesStartsNotWaits(t *testing.T) {
	t.Parallel()
	const every = 300 * time.Millisecond
	w := newWindow(2, float64(time.Minute/every))
	// The first two hold both slots until about the same moment, later
	// than the third's turn: the third waits for a slot, past its pace.
	hold := []time.Duration{1500 * time.Millisecond, 1200 * time.Millisecond, 0, 0, 0}
	var mu sync.Mutex
	var starts []time.Time
	for _, d := range hold {
		w.Go(context.Background(), true, func() {
			mu.Lock()
			starts = append(starts, time.Now())
			mu.Unlock()
			time.Sleep(d)
		}, nil)
	}
	w.Wait()
	for i := 1; i < len(starts); i++ {
		// Timers never fire early; the slack is for a goroutine scheduled
		// late on a loaded machine, which can only shorten a gap a little.
		if gap := starts[i].Sub(starts[i-1]); gap < every-100*time.Millisecond {
			t.Fatalf("items %d and %d started %v apart; the rate allows one per %v", i, i+1, gap, every)
		}
	}
}
