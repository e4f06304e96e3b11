package engine

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// Events appended while the store closes are either committed or refused
// with ErrStoreClosed; no writer waits forever.
func TestStoreCloseAnswersEveryWriter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	store := e.eng.Store()
	var wg sync.WaitGroup
	results := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i == 100 {
				store.Close()
			}
			results <- store.Write(context.Background(), Event{RunID: "r", State: StateRunning})
		}(i)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a writer is still waiting 30 s after Close")
	}
	close(results)
	for err := range results {
		if err != nil && !errors.Is(err, ErrStoreClosed) {
			t.Fatalf("write during close: %v", err)
		}
	}
	if err := store.Write(context.Background(), Event{RunID: "r"}); !errors.Is(err, ErrStoreClosed) {
		t.Fatalf("write after close: %v, want ErrStoreClosed", err)
	}
}
