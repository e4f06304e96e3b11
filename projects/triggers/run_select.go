package triggers

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
)

// Run kinds: what a trigger's `run:` says it runs.
const (
	RunLatestComplete = "latest-complete" // the partition that ended last at the tick, optionally N before it
	RunLast           = "last"            // the N latest complete partitions
	RunCurrent        = "current"         // the partition the tick falls in
	RunAffected       = "affected"        // event triggers: the partitions whose upstream changed
	RunAll            = "all"             // an unpartitioned pipeline's one partition
)

// RunSpec is a parsed `run:` value.
type RunSpec struct {
	Kind string
	N    int // the offset of latest-complete-N, or the count of last N
}

// String writes the spec as a pipeline file would.
func (r RunSpec) String() string {
	switch {
	case r.Kind == RunLatestComplete && r.N > 0:
		return fmt.Sprintf("latest-complete-%d", r.N)
	case r.Kind == RunLast:
		return fmt.Sprintf("last %d", r.N)
	}
	return r.Kind
}

const runForms = `latest-complete, latest-complete-N (N partitions before it), last N, current, affected (event triggers) or all (unpartitioned pipelines)`

// ParseRun reads a `run:` value. Whether it fits the trigger and the
// pipeline's partitioning is Fits's question.
func ParseRun(s string) (RunSpec, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case RunLatestComplete, RunCurrent, RunAffected, RunAll:
		return RunSpec{Kind: v}, nil
	}
	if rest, ok := strings.CutPrefix(v, RunLatestComplete); ok {
		rest = strings.TrimSpace(rest)
		if n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(rest, "-"))); err == nil && strings.HasPrefix(rest, "-") && n >= 0 {
			return RunSpec{Kind: RunLatestComplete, N: n}, nil
		}
	}
	if rest, ok := strings.CutPrefix(v, RunLast); ok {
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || n < 1 {
			return RunSpec{}, fmt.Errorf("run %q: want last N with N at least 1, such as \"last 3\"", s)
		}
		return RunSpec{Kind: RunLast, N: n}, nil
	}
	return RunSpec{}, fmt.Errorf("unknown run %q: want %s", s, runForms)
}

// Fits checks the spec against the trigger kind (event or not) and the
// pipeline's interval.
func (r RunSpec) Fits(event bool, interval partitions.Interval) error {
	switch {
	case event && r.Kind != RunAffected:
		return fmt.Errorf("run %q: an event trigger runs the partitions its upstream change affected: want run: affected", r)
	case !event && r.Kind == RunAffected:
		return fmt.Errorf("run: affected needs a when: {product: ...} event to know what was affected; a schedule runs latest-complete, latest-complete-N, last N or current")
	case interval == partitions.None && r.Kind != RunAll && r.Kind != RunAffected:
		return fmt.Errorf("run %q: the pipeline is not partitioned (interval none), so there is one partition: want run: all, or leave run out", r)
	case interval != partitions.None && r.Kind == RunAll:
		return fmt.Errorf("run: all is for unpartitioned pipelines; this one is partitioned by %s: want latest-complete, latest-complete-N, last N or current", interval)
	}
	return nil
}

// FitsNewKey checks the spec of a new-key event trigger: affected runs
// the new keys' cells over every time partition from the start; last N,
// latest-complete(-N) and current narrow the time part to their window.
func (r RunSpec) FitsNewKey(interval partitions.Interval) error {
	switch {
	case r.Kind == RunAll:
		return fmt.Errorf("run: all is for unpartitioned pipelines; a new-key trigger runs affected (every time partition of the new keys), last N, latest-complete, latest-complete-N or current")
	case interval == partitions.None && r.Kind != RunAffected:
		return fmt.Errorf("run %q: the pipeline has no time dimension, so the new keys' cells are all there is: want run: affected, or leave run out", r)
	}
	return nil
}

// DefaultRun is what a trigger runs when `run:` is left out.
func DefaultRun(event bool, interval partitions.Interval) RunSpec {
	switch {
	case event:
		return RunSpec{Kind: RunAffected}
	case interval == partitions.None:
		return RunSpec{Kind: RunAll}
	}
	return RunSpec{Kind: RunLatestComplete}
}

// Window is the range of partition keys (both included) a tick at tick runs.
func (r RunSpec) Window(spec partitions.Spec, tick time.Time) (from, to string, err error) {
	if spec.Interval == partitions.None {
		return partitions.AllKey, partitions.AllKey, nil
	}
	var last partitions.Partition
	switch r.Kind {
	case RunCurrent:
		last = spec.At(tick)
	case RunLatestComplete, RunLast:
		last = spec.Latest(tick)
		for i := 0; i < r.N && r.Kind == RunLatestComplete && last.Key != ""; i++ {
			last = spec.Prev(last)
		}
	default:
		return "", "", fmt.Errorf("run %q has no window of its own", r)
	}
	if last.Key == "" || (!spec.Start.IsZero() && last.End.Compare(spec.Start) <= 0) {
		return "", "", fmt.Errorf("run %s at %s: no such partition yet (the first partition starts %s)", r, tick.Format(time.RFC3339), spec.Start.Format(time.RFC3339))
	}
	first := last
	for i := 1; r.Kind == RunLast && i < r.N; i++ {
		prev := spec.Prev(first)
		if !spec.Start.IsZero() && prev.End.Compare(spec.Start) <= 0 {
			break // the window is cut at the first partition
		}
		first = prev
	}
	return first.Key, last.Key, nil
}
