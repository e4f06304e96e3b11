package engine

import (
	"context"
	"strconv"
	"strings"
	"sync"
)

// Each attempt at a partition of a backfill is its own run, so that the
// history is append-only: a retry that reused the run id buried the failed
// run under the new one's events (the Runs page's failed filter showed
// nothing after a retry). The partition's slot id is runIDFor(backfill,
// key); its first attempt runs under that id, the n-th under slot~n. The ids
// stay deterministic: a resume after a crash continues the attempt the crash
// interrupted under its own id (and finds what it published), and the next
// attempt's id is the count of earlier ones plus one.

// attemptSep separates a slot id from its attempt number; partition keys
// never hold it.
const attemptSep = "~"

// slotSQL is the slot id of a run_events or versions row's run_id.
const slotSQL = `regexp_replace(run_id, '~[0-9]+$', '')`

// attemptID is the run id of attempt n (from 1) of slot.
func attemptID(slot string, n int) string {
	if n <= 1 {
		return slot
	}
	return slot + attemptSep + strconv.Itoa(n)
}

// slotOf is the slot of a run id, and which attempt it is (1 for a run id
// without a suffix, such as every run outside backfills).
func slotOf(runID string) (string, int) {
	i := strings.LastIndex(runID, attemptSep)
	if i < 0 {
		return runID, 1
	}
	n, err := strconv.Atoi(runID[i+1:])
	if err != nil || n < 2 {
		return runID, 1
	}
	return runID[:i], n
}

// slotState is what the run log says of one partition of a backfill: the
// state of its latest attempt, that attempt's run id and how many attempts
// it had.
type slotState struct {
	State    State
	Run      string
	Attempts int
	Key      string // the partition key its events carry
}

// next is the run id the partition runs under now: the attempt a crash or
// a restart interrupted (left running, or queued by requeueInterrupted)
// continues under its own id; after a final state, a new attempt.
func (s slotState) next(slot string) string {
	switch s.State {
	case "":
		return slot
	case StateRunning, StateQueued:
		return s.Run
	}
	return attemptID(slot, s.Attempts+1)
}

// skipID is the run id a skip of the partition is recorded under: a
// partition skipped again keeps its run; otherwise as next.
func (s slotState) skipID(slot string) string {
	if s.State == StateSkipped {
		return s.Run
	}
	return s.next(slot)
}

// partitionSlots reads the latest attempt of each partition of backfill id.
func (e *Engine) partitionSlots(ctx context.Context, id string) (map[string]slotState, error) {
	if err := e.store.Write(ctx); err != nil { // read our own writes
		return nil, err
	}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT `+slotSQL+` AS slot, arg_max(state, seq), arg_max(run_id, seq), count(DISTINCT run_id), any_value(partition_key)
		FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' GROUP BY slot`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]slotState{}
	for rows.Next() {
		var slot, st string
		var s slotState
		if err := rows.Scan(&slot, &st, &s.Run, &s.Attempts, &s.Key); err != nil {
			return nil, err
		}
		s.State = State(st)
		out[slot] = s
	}
	return out, rows.Err()
}

// slotBook is a running backfill's own copy of its partitions' latest
// states, the ones its events write to the log, so that the counts it
// reports while it runs are the log's (partitionSlots), not counters of its
// own that a restart, a retry or a pass over earlier results made disagree
// with the log and the grid.
type slotBook struct {
	mu    sync.Mutex
	slots map[string]slotState
}

func newSlotBook(prior map[string]slotState) *slotBook {
	b := &slotBook{}
	b.load(prior)
	return b
}

// load replaces the book's states with the log's.
func (b *slotBook) load(slots map[string]slotState) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.slots = make(map[string]slotState, len(slots))
	for k, v := range slots {
		b.slots[k] = v
	}
}

func (b *slotBook) get(slot string) slotState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.slots[slot]
}

// set records that slot's attempt run is now in state s.
func (b *slotBook) set(slot, run string, s State) {
	b.mu.Lock()
	defer b.mu.Unlock()
	cur := b.slots[slot]
	if cur.Run != run {
		cur.Attempts++
	}
	cur.Run, cur.State = run, s
	b.slots[slot] = cur // Key is only read from the log (requeueInterrupted)
}

// states is each slot's latest state.
func (b *slotBook) states() map[string]State {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[string]State, len(b.slots))
	for k, s := range b.slots {
		out[k] = s.State
	}
	return out
}

// counts tallies the latest states.
func (b *slotBook) counts() map[State]int {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[State]int{}
	for _, s := range b.slots {
		out[s.State]++
	}
	return out
}
