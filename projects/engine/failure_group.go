package engine

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A backfill of 1,461 partitions that fails usually fails for a handful of
// reasons. Its page lists failures grouped by the block that failed and
// the error's class (the message with what differs from one partition to
// the next, dates, times, numbers, quoted values, taken out), each group
// with its partitions, so a person reads three reasons, not 900 lines, and
// retries one group once its cause is fixed (RetryPartitions).

// FailedPartition is one failed (or cancelled) partition of a backfill.
type FailedPartition struct {
	Key      string `json:"key"`
	Interval string `json:"interval"`
	State    State  `json:"state"`
	RunID    string `json:"run_id,omitempty"`
	Block    string `json:"block,omitempty"` // the block that failed; "" when none did (cancelled, refused)
	Error    string `json:"error,omitempty"`
}

// FailureGroup is the failures of one block with one class of error.
type FailureGroup struct {
	Block      string            `json:"block"`
	Class      string            `json:"class"`   // the error with its varying parts replaced
	Example    string            `json:"example"` // the first partition's error as it was
	State      State             `json:"state"`   // failed or cancelled
	Count      int               `json:"count"`
	Partitions []FailedPartition `json:"partitions"` // in the backfill's order
}

var classPatterns = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?`), "<time>"},
	{regexp.MustCompile(`\d{4}-W\d{2}`), "<week>"},
	{regexp.MustCompile(`"[^"]*"|'[^']*'`), "<value>"},
	{regexp.MustCompile(`\b[0-9a-f]{12,}\b`), "<id>"},
	{regexp.MustCompile(`\d+(\.\d+)?`), "<n>"},
}

// ErrorClass is msg with what varies between partitions replaced: dates
// and times, quoted values, hex ids, numbers. Two partitions failing the
// same way share a class.
func ErrorClass(msg string) string {
	s := strings.TrimSpace(msg)
	for _, p := range classPatterns {
		s = p.re.ReplaceAllString(s, p.with)
	}
	return s
}

// GroupFailures groups failed partitions by state, block and error class,
// the largest group first (ties: the first to fail in the backfill's
// order). Partitions keep their order within a group.
func GroupFailures(parts []FailedPartition) []FailureGroup {
	var out []FailureGroup
	at := map[string]int{}
	for _, p := range parts {
		class := ErrorClass(p.Error)
		k := string(p.State) + "\x00" + p.Block + "\x00" + class
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, FailureGroup{Block: p.Block, Class: class, Example: p.Error, State: p.State})
		}
		out[i].Count++
		out[i].Partitions = append(out[i].Partitions, p)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Count > out[b].Count })
	return out
}

// BackfillFailures groups the backfill's failed and cancelled partitions
// (GroupFailures), each with the block whose failure ended its latest attempt.
func (e *Engine) BackfillFailures(ctx context.Context, id string) ([]FailureGroup, error) {
	var parts []FailedPartition
	for _, state := range []State{StateFailed, StateCancelled} {
		ps, _, err := e.BackfillPartitions(ctx, id, string(state), 0, -1)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			parts = append(parts, FailedPartition{Key: p.Key, Interval: p.Interval, State: p.State, RunID: p.RunID, Error: p.Error})
		}
	}
	blocks, err := e.failedBlocks(ctx, id)
	if err != nil {
		return nil, err
	}
	for i := range parts {
		parts[i].Block = blocks[parts[i].RunID]
	}
	return GroupFailures(parts), nil
}

// failedBlocks maps each attempt of the backfill to the first block that
// failed in it.
func (e *Engine) failedBlocks(ctx context.Context, id string) (map[string]string, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT run_id, arg_min(block_id, seq) FROM _strata.run_events
		WHERE backfill_id = ? AND block_id <> '' AND state = ? GROUP BY run_id`, id, string(StateFailed))
	if err != nil {
		return nil, fmt.Errorf("failed blocks of backfill %s: %w", id, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var run, block string
		if err := rows.Scan(&run, &block); err != nil {
			return nil, err
		}
		out[run] = block
	}
	return out, rows.Err()
}

// RetryPartitions is Retry limited to some failed or cancelled partitions
// of the backfill (keys as its partitions list names them: a pipeline
// partition, or a rollup's key): a group of failures whose cause is fixed.
// Every other partition keeps its state, so the backfill ends failed while
// other failures remain.
func (e *Engine) RetryPartitions(ctx context.Context, id string, keys []string, useCurrentCode bool) (*BackfillStatus, error) {
	if e.running(id) != nil {
		return nil, fmt.Errorf("backfill %s is still running; retry it when it ends", id)
	}
	if len(keys) == 0 {
		return nil, &SpecError{fmt.Errorf("partitions: name at least one failed or cancelled partition to retry")}
	}
	all, _, err := e.BackfillPartitions(ctx, id, "", 0, -1)
	if err != nil {
		return nil, err
	}
	byKey := map[string]PartitionStatus{}
	for _, p := range all {
		byKey[p.Key] = p
		if p.Interval != "" {
			byKey[p.Interval+":"+p.Key] = p
		}
	}
	only := map[string]bool{}
	for _, k := range keys {
		p, ok := byKey[k]
		if !ok {
			return nil, &SpecError{fmt.Errorf("partitions: %q is not a partition of backfill %s", k, id)}
		}
		if p.State != StateFailed && p.State != StateCancelled {
			return nil, &SpecError{fmt.Errorf("partitions: %s is %s; only failed or cancelled partitions are retried", k, p.State)}
		}
		only[slotFor(id, p)] = true
	}
	return e.restart(ctx, id, true, useCurrentCode, only)
}

// slotFor is the slot (run id of the first attempt) of a listed partition.
// One a cancel stopped before it started has no run: a pipeline
// partition's slot is then derived from its key.
func slotFor(id string, p PartitionStatus) string {
	if p.RunID != "" {
		slot, _ := slotOf(p.RunID)
		return slot
	}
	return runIDFor(id, p.Key)
}
