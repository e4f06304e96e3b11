package engine

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// failingHook is the Store's CommitHook, refusing the first transaction
// that carries a run's final state for partition key.
type failingHook struct {
	warehouse.CommitHook
	key string

	mu      sync.Mutex
	refused bool
}

func (h *failingHook) BeforeCommit(conn driver.Conn, rideAlong []any) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range rideAlong {
		for _, ev := range r.(rideEvents) {
			if ev.Partition == h.key && ev.Block == "" && ev.State.Final() && !h.refused {
				h.refused = true
				return errors.New("injected: the final state cannot be written")
			}
		}
	}
	return h.CommitHook.BeforeCommit(conn, rideAlong)
}

// A run's final state is written by its publish's own transaction: when it
// cannot be written, the versions are not made durable either (a kill can
// never leave a publish without its run's final state), the run ends
// failed, and the log says so.
func TestRunFinalStateCommitsWithItsPublish(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{
		"pipelines/p.yaml":  "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nretries: {attempts: 0}\nblocks:\n  - id: src\n  - id: agg\n    upstream: [src]\n",
		"blocks/src/src.go": srcBlock,
		"blocks/agg.sql":    aggBlock,
	})
	hook := &failingHook{CommitHook: storeHook{e.eng.Store()}, key: "2024-01-05"}
	e.wh.SetCommitHook(hook)

	res := e.run("p", "2024-01-05")
	if res.State != StateFailed || !strings.Contains(res.Error, "injected") {
		t.Fatalf("run whose final state could not be written: %s %q, want failed with the injected error", res.State, res.Error)
	}
	if _, err := e.wh.Read(context.Background(), "agg", warehouse.Selection{Partitions: []string{"2024-01-05"}}, -1); !errors.Is(err, warehouse.ErrNotFound) {
		t.Fatalf("read agg 2024-01-05 after the refused transaction: %v, want not found (the publish rolled back with its final state)", err)
	}
	var last string
	if err := e.wh.DB().QueryRow(`SELECT arg_max(state, seq) FROM _strata.run_events WHERE run_id = ? AND block_id = ''`, res.RunID).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if last != string(StateFailed) {
		t.Fatalf("run log ends %q, want failed", last)
	}

	// The next run publishes with its final state.
	e.mustSucceed(e.run("p", "2024-01-06"))
	var final string
	if err := e.wh.DB().QueryRow(`SELECT arg_max(state, seq) FROM _strata.run_events WHERE partition_key = '2024-01-06' AND block_id = ''`).Scan(&final); err != nil {
		t.Fatal(err)
	}
	if final != string(StateSucceeded) {
		t.Fatalf("run log of 2024-01-06 ends %q, want succeeded", final)
	}
}
