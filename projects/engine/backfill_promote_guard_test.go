package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// stagedReview runs a partition backfill of 2024-01-01..04, changes the
// data, and stages a review backfill over the same days.
func stagedReview(t *testing.T, checks string) (*env, *BackfillStatus) {
	t.Helper()
	e := newEnv(t, false, reviewFiles("1", "", ""))
	e.backfill(spec("2024-01-01", "2024-01-04"))
	e.rewrite(reviewFiles("2", "", checks))
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-04"))
	if st.State != StateReview {
		t.Fatalf("review backfill: %s %s", st.State, st.Message)
	}
	return e, st
}

// A rollback to a version a review only staged made it current with no
// check run and no promotion recorded, even for a review whose promote
// its failed checks refused. Rollback goes to versions current once.
func TestRollbackRefusesAVersionOnlyStaged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, st := stagedReview(t, `checks:
  - name: total
    product: src
    total_within: {column: v, percent: 5}
`)
	if _, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{}); !errors.As(err, new(*GateError)) {
		t.Fatalf("promote of a failing review: %v", err)
	}
	err := e.eng.RollbackProduct(ctx, "p__src", "2024-01-02", 2)
	if !errors.Is(err, warehouse.ErrNeverCurrent) || !strings.Contains(err.Error(), "strata backfill promote") {
		t.Fatalf("rollback to a staged version: %v", err)
	}
	if n := e.count(`SELECT sum(v) FROM p__src`); n != 4*45 {
		t.Fatalf("the refused rollback changed data: sum %d", n)
	}
	// A version that was current once is still a target.
	e.mustSucceed(e.run("p", "2024-01-03"))
	if err := e.eng.RollbackProduct(ctx, "p__src", "2024-01-03", 1); err != nil {
		t.Fatal(err)
	}
}

// A promote counts the versions it made current, and the backfill's
// rollback the partitions it put back: a staged version made current
// another way (here the warehouse's promote, as a conflict's
// promote-anyway does) was counted by both, so "rolled back 8 partitions"
// left one on the backfill's version.
func TestPromoteAndRollbackCountWhatTheyChanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, st := stagedReview(t, "")
	if err := e.wh.Promote(ctx, []warehouse.VersionRef{{Product: "p__src", Partition: "2024-01-02", Version: 2}}, ""); err != nil {
		t.Fatal(err)
	}
	res, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Versions != 7 || res.Remaining != 0 || res.State != StateSucceeded {
		t.Fatalf("promote: %d versions, %d remaining, %s; want 7, 0, succeeded", res.Versions, res.Remaining, res.State)
	}
	n, err := e.eng.RollbackBackfill(ctx, st.ID)
	if err != nil || n != 7 {
		t.Fatalf("rollback: %d %v, want 7", n, err)
	}
	after, _ := e.eng.Backfill(ctx, st.ID)
	if !strings.Contains(after.Message, "rolled back 7 partitions") {
		t.Fatalf("rollback message: %q", after.Message)
	}
}

// Promotes of one backfill at once each counted every staged version as
// theirs; one runs, the others are refused naming it, and a discard after
// a full promote does not turn the backfill cancelled.
func TestConcurrentPromotesOneWins(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, st := stagedReview(t, "")
	var wg sync.WaitGroup
	results := make([]*PromoteResult, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
		}()
	}
	wg.Wait()
	won, total := 0, 0
	for i := range 3 {
		if errs[i] == nil {
			won++
			total += results[i].Versions
			continue
		}
		var busy *PromoteBusyError
		if !errors.As(errs[i], &busy) && !strings.Contains(errs[i].Error(), "already promoted: the promote at") {
			t.Errorf("losing promote: %v", errs[i])
		}
	}
	if won != 1 || total != 8 {
		t.Fatalf("%d promotes succeeded making %d versions current; want 1 making 8", won, total)
	}
	if _, err := e.eng.DiscardBackfill(ctx, st.ID); err == nil {
		t.Fatal("a discard of a fully promoted backfill was accepted")
	}
	if after, _ := e.eng.Backfill(ctx, st.ID); after.State != StateSucceeded {
		t.Fatalf("after the promotes and a discard: %s %q", after.State, after.Message)
	}
}

// A malformed "only" is the caller's mistake (a SpecError, 400 in the
// API), saying what was expected; it was a lifecycle refusal (409).
func TestPromoteOnlyMalformedIsASpecError(t *testing.T) {
	t.Parallel()
	e, st := stagedReview(t, "")
	for _, only := range []string{"garbage", "2024-01-03..2024-01-01", "2024-01-01..nope"} {
		_, err := e.eng.PromoteBackfill(context.Background(), st.ID, PromoteOptions{Only: only})
		var se *SpecError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "want one day partition key of pipeline p") {
			t.Errorf("only %q: %v", only, err)
		}
	}
}

// A promote whose switch committed but whose record and state did not (a
// kill between them) left the backfill "review" with nothing staged, and
// the next promote answered "no staged version starting in  (0 staged)".
// The next promote sets the state from the catalog and says what happened.
func TestPromoteAfterAnInterruptedPromoteSettlesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, st := stagedReview(t, "")
	staged, err := e.wh.Pinned(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	switches := make([]warehouse.Switch, len(staged))
	for i, s := range staged {
		switches[i] = warehouse.Switch{Product: s.Product, Partition: s.Partition, To: s.Version, Expect: warehouse.ExpectBasedOn}
	}
	if err := e.wh.SwitchBatch(ctx, st.ID, switches, st.ID); err != nil { // the promote's first step, alone
		t.Fatal(err)
	}
	_, err = e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
	if err == nil || !strings.Contains(err.Error(), "interrupted before it recorded so") {
		t.Fatalf("promote after an interrupted one: %v", err)
	}
	if after, _ := e.eng.Backfill(ctx, st.ID); after.State != StateSucceeded {
		t.Fatalf("state after: %s %q", after.State, after.Message)
	}
	if n, err := e.eng.RollbackBackfill(ctx, st.ID); err != nil || n != 8 {
		t.Fatalf("rollback of it: %d %v", n, err)
	}
}
