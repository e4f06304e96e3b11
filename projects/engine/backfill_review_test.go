package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// A daily pipeline whose loader writes ten keyed rows (v = id * scale),
// five on drop_day; checks are spliced in by the test.
const reviewPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {scale: "%s", drop_day: "%s"}
retries: {attempts: 0}
concurrency: 2
blocks:
  - id: src
    key: [id]
  - id: agg
    upstream: [src]
    key: [day]
%s`

const reviewChecks = `checks:
  - name: total
    product: src
    total_within: {column: v, percent: 5}
  - name: rows_kept
    product: src
    max_row_loss_percent: 10
  - name: no_negative
    sql: SELECT * FROM staged_src WHERE v < 0
`

const reviewSrc = `package src

import (
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	scale, _ := strconv.Atoi(ctx.Var("scale", "1"))
	n := 10
	if ctx.Var("drop_day", "") == ctx.Partition.Key {
		n = 5
	}
	t := sdk.NewTable(sdk.Int64("id"), sdk.Int64("v"))
	for i := 0; i < n; i++ {
		t.Append(int64(i), int64(i*scale))
	}
	return t, nil
}
`

func reviewFiles(scale, dropDay, checks string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml":  sprintf(reviewPipeline, scale, dropDay, checks),
		"blocks/src/src.go": reviewSrc,
		"blocks/agg.sql":    `SELECT $partition_key AS day, count(*) AS n, sum(v) AS total FROM src`,
	}
}

func reviewSpec(from, to string) BackfillSpec {
	return BackfillSpec{Pipeline: "p", From: from, To: to, Reprocess: ReprocessAll, Publish: PublishReview, Concurrency: 2}
}

// rewrite changes the pipeline's files and reloads them.
func (e *env) rewrite(files map[string]string) {
	e.t.Helper()
	writeFiles(e.t, e.dir, files)
	e.reload()
}

func (e *env) review(id string) *BackfillReview {
	e.t.Helper()
	rv, err := e.eng.BackfillReview(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return rv
}

func productReview(t *testing.T, rv *BackfillReview, block string) *ProductReview {
	t.Helper()
	for i := range rv.Products {
		if rv.Products[i].Block == block {
			return &rv.Products[i]
		}
	}
	t.Fatalf("review has no product for block %s", block)
	return nil
}

// A review backfill stages everything and publishes nothing; failing gates
// block its promotion until overridden (and the override is recorded); a
// rollback restores what was current before.
func TestReviewGatesOverrideAndRollback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, reviewFiles("1", "", reviewChecks))
	if st := e.backfill(spec("2024-01-01", "2024-01-04")); st.State != StateSucceeded {
		t.Fatalf("first backfill: %s %s", st.State, st.Message)
	}
	e.rewrite(reviewFiles("1", "2024-01-02", reviewChecks))
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-04"))
	if st.State != StateReview || !strings.Contains(st.Message, "ready for review: 8 versions staged") {
		t.Fatalf("review backfill: %s %q", st.State, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM p__src`); n != 40 {
		t.Fatalf("a review backfill changed current data: %d rows", n)
	}
	rv := e.review(st.ID)
	src := productReview(t, rv, "src")
	if src.Changed != 1 || src.Unchanged != 3 || src.New != 0 || src.RowsBefore != 40 || src.RowsAfter != 35 || src.Counts.Removed != 5 {
		t.Fatalf("src review: %+v", src.ProductDiff)
	}
	if rv.GatesPassed || len(rv.Gates) != 3 || rv.Gates[0].Passed || rv.Gates[1].Passed || !rv.Gates[2].Passed {
		t.Fatalf("gates: %+v", rv.Gates)
	}
	if !strings.Contains(rv.Gates[0].Detail, "current 180, staged 145") || !strings.Contains(rv.Gates[1].Failures[0], "2024-01-02: 10 → 5 rows") {
		t.Fatalf("gate details: %+v", rv.Gates)
	}
	_, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
	var ge *GateError
	if !errors.As(err, &ge) || len(ge.Failed) != 2 {
		t.Fatalf("promote with failed gates: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM p__src`); n != 40 {
		t.Fatalf("a refused promote changed data: %d rows", n)
	}
	res, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Override: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateSucceeded || res.Versions != 8 || strings.Join(res.Overridden, ",") != "total,rows_kept" {
		t.Fatalf("promote: %+v", res)
	}
	if n := e.count(`SELECT count(*) FROM p__src`); n != 35 {
		t.Fatalf("after promote: %d rows", n)
	}
	rv = e.review(st.ID)
	if len(rv.Promotions) != 1 || len(rv.Promotions[0].Overridden) != 2 || rv.Staged != 0 {
		t.Fatalf("recorded promotions: %+v, staged %d", rv.Promotions, rv.Staged)
	}
	if n, err := e.eng.RollbackBackfill(ctx, st.ID); err != nil || n != 8 {
		t.Fatalf("rollback: %d %v", n, err)
	}
	if n := e.count(`SELECT count(*) FROM p__src`); n != 40 {
		t.Fatalf("after rollback: %d rows", n)
	}
	if st, _ := e.eng.Backfill(ctx, st.ID); st.State != StateRolledBack {
		t.Fatalf("state after rollback: %s", st.State)
	}
}

// Gates that pass let a promote through without override; a part can be
// promoted alone; a partition's row diff is keyed; a rollback with a newer
// version in the way is refused with the list; discard drops what is left.
func TestReviewPartialPromoteDiffRollbackConflictDiscard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, reviewFiles("1", "", ""))
	e.backfill(spec("2024-01-01", "2024-01-04"))
	e.rewrite(reviewFiles("2", "", `checks:
  - name: rows_kept
    product: src
    max_row_loss_percent: 10
`))
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-04"))
	if st.State != StateReview {
		t.Fatalf("%s %s", st.State, st.Message)
	}
	rv := e.review(st.ID)
	if src := productReview(t, rv, "src"); src.Changed != 4 || src.Counts.Changed != 36 || !rv.GatesPassed {
		t.Fatalf("src review %+v gates %+v", src.ProductDiff, rv.Gates)
	}
	d, err := e.eng.BackfillPartitionDiff(ctx, st.ID, PartitionDiffOptions{Product: "src", Partition: "2024-01-03", Rows: 20})
	if err != nil {
		t.Fatal(err)
	}
	if d.Counts.Changed != 9 || len(d.Rows) != 9 || d.Rows[0].Old[1] != int64(1) || d.Rows[0].New[1] != int64(2) || strings.Join(d.Keys, ",") != "id" {
		t.Fatalf("partition diff: %+v rows %+v", d.Counts, d.Rows)
	}
	res, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Only: "2024-01-01..2024-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Versions != 4 || res.Remaining != 4 || res.State != StateReview || res.Partitions["p__src"] != 2 {
		t.Fatalf("partial promote: %+v", res)
	}
	if n := e.count(`SELECT sum(v) FROM p__src`); n != 2*90+2*45 {
		t.Fatalf("after partial promote, sum %d", n)
	}
	// A newer version of 2024-01-01 is published: a rollback would
	// overwrite it, so it is refused, naming the partitions.
	e.mustSucceed(e.run("p", "2024-01-01"))
	_, err = e.eng.RollbackBackfill(ctx, st.ID)
	var ce *ReviewConflictError
	if !errors.As(err, &ce) || ce.Op != "rollback" || len(ce.Conflicts) != 2 || ce.Conflicts[0].Partition != "2024-01-01" || !errors.Is(err, warehouse.ErrSwitchConflict) {
		t.Fatalf("rollback with a newer version: %v", err)
	}
	if n := e.count(`SELECT sum(v) FROM p__src`); n != 2*90+2*45 {
		t.Fatalf("a refused rollback changed data: sum %d", n)
	}
	// Newer work in a staged partition refuses the promote of the rest as
	// a review conflict (not a needs_attention one) naming its own way out;
	// --skip-newer promotes the other partitions and leaves it staged.
	e.mustSucceed(e.run("p", "2024-01-03"))
	_, err = e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
	if !errors.As(err, &ce) || ce.Op != "promote" || len(ce.Conflicts) != 2 || ce.Conflicts[0].Partition != "2024-01-03" || !strings.Contains(err.Error(), "--skip-newer") {
		t.Fatalf("promote with a newer version: %v", err)
	}
	if rv := e.review(st.ID); len(productReview(t, rv, "src").Newer) != 1 || rv.Backfill.State != StateReview {
		t.Fatalf("review after the refused promote: newer %v, state %s", productReview(t, rv, "src").Newer, rv.Backfill.State)
	}
	res, err = e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{SkipNewer: true})
	if err != nil || res.Versions != 2 || len(res.Skipped) != 2 || res.Remaining != 2 || res.State != StateReview {
		t.Fatalf("promote --skip-newer: %+v %v", res, err)
	}
	if _, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{SkipNewer: true}); !errors.As(err, &ce) {
		t.Fatalf("promote --skip-newer with only newer work left: %v", err)
	}
	n, err := e.eng.DiscardBackfill(ctx, st.ID)
	if err != nil || n != 2 {
		t.Fatalf("discard: %d %v", n, err)
	}
	if rv := e.review(st.ID); rv.Staged != 0 || rv.Backfill.State != StateCancelled {
		t.Fatalf("after discard: staged %d state %s", rv.Staged, rv.Backfill.State)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE partition = '2024-01-03' AND run_id LIKE '` + st.ID + `%'`); n != 0 {
		t.Fatalf("%d staged versions of 2024-01-03 left after discard", n)
	}
}

// `strata backfill rollback` of a backfill that published as it ran says
// what to do instead, not "nothing staged to review" (which reads as though
// the backfill had published nothing).
func TestRollbackOfAPartitionBackfillSaysWhatToDo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.backfill(spec("2024-01-01", "2024-01-02"))
	if st.State != StateSucceeded {
		t.Fatalf("backfill: %s", st.Message)
	}
	_, err := e.eng.RollbackBackfill(context.Background(), st.ID)
	if err == nil {
		t.Fatal("a partition backfill was rolled back as a review one")
	}
	for _, want := range []string{"--publish review", "strata rollback", "--to-version"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("rollback refusal %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "nothing staged") {
		t.Errorf("rollback refusal %q", err)
	}
}

// A discard after a promote of a part drops what is still staged, and only
// that: the promoted partitions stay succeeded (their versions are
// current), and a retry runs the discarded ones alone. The discard marked
// every partition cancelled, so the backfill read "cancelled, 0
// succeeded" with half of it current, and a retry would have run it all.
func TestDiscardAfterAPartialPromoteKeepsThePromoted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, reviewFiles("1", "", ""))
	e.backfill(spec("2024-01-01", "2024-01-04"))
	e.rewrite(reviewFiles("2", "", ""))
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-04"))
	if st.State != StateReview {
		t.Fatalf("%s %s", st.State, st.Message)
	}
	if _, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{Only: "2024-01-01..2024-01-02"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.DiscardBackfill(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	after, err := e.eng.Backfill(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.State != StateCancelled || after.Progress.Succeeded != 2 || after.Progress.Cancelled != 2 || !strings.Contains(after.Message, "2 partitions promoted before stay current") {
		t.Fatalf("after promoting two days and discarding the rest: %s %q %+v", after.State, after.Message, after.Progress)
	}
	rp, err := e.eng.PlanRetry(ctx, st.ID, false)
	if err != nil || rp.ToRun != 2 {
		t.Fatalf("retry plan after the discard: %+v %v", rp, err)
	}
}
