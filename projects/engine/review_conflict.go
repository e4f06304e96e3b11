package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/stratahq/strata/projects/warehouse"
)

// Two kinds of conflict with newer work, resolved differently:
//
//   - A backfill that publishes as it runs (partition or atomic mode) meets
//     a partition where newer work became current after it was planned: it
//     keeps its version aside, ends needs_attention, and is resolved with
//     `backfill promote-anyway` or `backfill keep-newer` (BackfillConflict,
//     backfill_conflict.go; the API's GET /backfills/:id/conflicts).
//   - A review backfill's promote (or a promoted one's rollback) meets a
//     partition whose current version changed since staging (since the
//     promote): nothing is switched, the backfill stays where it was, and
//     the error is a *ReviewConflictError naming its own resolution
//     (promote --skip-newer, discard, a new review backfill; for a
//     rollback, rolling the listed partitions back one by one).
//
// The API tells them apart by code (409 "review_conflict" here) and the CLI
// by the commands it prints.

// ReviewConflictError refuses a promote or rollback of a review backfill.
type ReviewConflictError struct {
	Backfill  string
	Op        string // "promote" or "rollback"
	Conflicts []warehouse.SwitchConflict
	// Resolve are the commands that resolve it, in the order suggested.
	Resolve []string
}

func (e *ReviewConflictError) Error() string {
	lines := make([]string, 0, min(len(e.Conflicts), 10))
	for _, c := range e.Conflicts[:min(len(e.Conflicts), 10)] {
		lines = append(lines, c.String())
	}
	more := ""
	if len(e.Conflicts) > 10 {
		more = fmt.Sprintf("; and %d more", len(e.Conflicts)-10)
	}
	what := "its staged versions were planned against versions that are no longer current"
	if e.Op == "rollback" {
		what = "newer versions became current after the promote"
	}
	return fmt.Sprintf("%s of backfill %s refused, nothing was switched: in %d partitions %s (%s%s); %s",
		e.Op, e.Backfill, len(e.Conflicts), what, strings.Join(lines, "; "), more, strings.Join(e.Resolve, ", or "))
}

// Unwrap lets errors.Is(err, warehouse.ErrSwitchConflict) still find it.
func (e *ReviewConflictError) Unwrap() error { return warehouse.ErrSwitchConflict }

// reviewConflict turns a switch conflict of a review backfill's promote or
// rollback into a *ReviewConflictError with its resolutions; other errors
// pass.
func (e *Engine) reviewConflict(err error, id, op string) error {
	var sce *warehouse.SwitchConflictError
	if !errors.As(err, &sce) {
		return err
	}
	dir := e.project().Dir
	rc := &ReviewConflictError{Backfill: id, Op: op, Conflicts: sce.Conflicts}
	if op == "promote" {
		rc.Resolve = []string{
			fmt.Sprintf("promote the rest with `strata backfill promote %s %s --skip-newer` (those partitions keep the newer versions; their staged ones stay staged until discarded)", dir, id),
			fmt.Sprintf("discard it with `strata backfill discard %s %s` and run a new review backfill over the newer data", dir, id),
		}
	} else {
		// The command for the first listed partition, with the version
		// current before the promote, as it runs.
		c := sce.Conflicts[0]
		to := "N"
		if logged, err := e.wh.BatchSwitches(context.Background(), id); err == nil {
			for _, s := range logged {
				if s.Product == c.Product && s.Partition == c.Partition {
					to = fmt.Sprint(s.From)
				}
			}
		}
		rc.Resolve = []string{
			fmt.Sprintf("keep the newer versions, or roll each listed partition back to the version current before the promote, such as `strata rollback %s %s --partition %s --to-version %s`", dir, c.Product, c.Partition, to),
		}
	}
	return rc
}
