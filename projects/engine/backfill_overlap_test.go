package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// Launching a backfill over partitions a running one of the same pipeline
// covers is refused (it ended "needs attention" with a conflict for every
// partition); so is the second of two launches at once (a double-click).
// Another range, another pipeline's, or allow_overlap launch as before.
func TestOverlappingLaunchIsRefused(t *testing.T) {
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	paced := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-31", Concurrency: 1, RatePerMin: 60}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var launched []*BackfillStatus
	var refused []error
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := e.eng.Launch(ctx, paced)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				refused = append(refused, err)
			} else {
				launched = append(launched, st)
			}
		}()
	}
	wg.Wait()
	var oe *OverlapError
	if len(launched) != 1 || len(refused) != 1 || !errors.As(refused[0], &oe) || oe.Running != launched[0].ID {
		t.Fatalf("two launches at once: launched %d, refused %v", len(launched), refused)
	}
	first := launched[0].ID
	_, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "p", From: "2024-01-31", To: "2024-02-05"})
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "already running over 2024-01-01..2024-01-31") || !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("overlapping by one day: %v", err)
	}
	other, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "p", From: "2024-02-01", To: "2024-02-02"})
	if err != nil {
		t.Fatalf("a range next to it: %v", err)
	}
	both, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "p", From: "2024-01-10", To: "2024-01-10", AllowOverlap: true})
	if err != nil {
		t.Fatalf("allow_overlap: %v", err)
	}
	for _, id := range []string{other.ID, both.ID} {
		if st, _ := e.eng.Wait(ctx, id); !st.State.Final() {
			t.Fatalf("%s: %s", id, st.State)
		}
	}
	if err := e.eng.Cancel(ctx, first); err != nil {
		t.Fatal(err)
	}
	e.eng.Wait(ctx, first)
	if st, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-02"}); err != nil {
		t.Fatalf("after the running one was cancelled: %v", err)
	} else {
		e.eng.Wait(ctx, st.ID)
	}
}
