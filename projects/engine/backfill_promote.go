package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// Promote, discard and rollback of a backfill staged for review. A promote
// switches the chosen staged versions current in one warehouse transaction
// (compare-and-set: a partition where a newer version became current since
// refuses the whole promote, naming it), logged under the backfill's id so
// that a rollback can switch every partition back, in one transaction too.

// PromoteOptions choose what to promote.
type PromoteOptions struct {
	// Only promotes the staged partitions starting in this range of the
	// pipeline's partition keys ("2024-01-01..2024-12-31", or one key);
	// empty promotes everything staged.
	//
	// For a pipeline with value dimensions the range is of time keys, a
	// single cell key names one cell, and " where region=eu,us" narrows it
	// by value ("2024-01-01..2024-01-07 where region=eu", or "where
	// region=eu" alone): cells of a review promote in part by any dimension.
	Only string `json:"only,omitempty"`
	// Where is the same narrowing as a map (the CLI's --where); it is
	// folded into Only, which is what the promotion records.
	Where map[string][]string `json:"where,omitempty"`
	// Override promotes although review checks failed; the override and
	// the failed checks are recorded with the promotion.
	Override bool `json:"override,omitempty"`
	// SkipNewer promotes everything else when some partitions have a
	// version current that the staged one was not planned against (newer
	// work): those keep it, and their staged versions stay staged (a
	// promote without it refuses with a *ReviewConflictError).
	SkipNewer bool `json:"skip_newer,omitempty"`
	// DryRun switches nothing and records nothing: the result says what
	// this promote would make current now (Versions, Partitions, Plan),
	// computed by the same selection the promote applies, so a
	// confirmation built from it lists exactly what the promote changes
	// (a weekly rollup staged in the range included). Review checks are
	// not evaluated: the review shows them. Set by the server's promote
	// plan route, never read from a promote's body (that one is audited).
	DryRun bool `json:"-"`
	// Actor is who promotes (a user's name), recorded with the promotion;
	// set by the server or the CLI, never read from a request body.
	Actor string `json:"-"`
}

// Promotion is one promote of a review backfill, as recorded.
type Promotion struct {
	At         time.Time `json:"at"`
	Only       string    `json:"only,omitempty"`
	Versions   int       `json:"versions"`
	Overridden []string  `json:"overridden,omitempty"` // gates that failed and were overridden
	By         string    `json:"by,omitempty"`         // who promoted ("" before it was recorded)
}

// PromoteResult says what a promote made current.
type PromoteResult struct {
	Promotion
	Partitions map[string]int `json:"partitions"` // product -> partitions made current
	Remaining  int            `json:"remaining"`  // versions still staged
	// Skipped are the partitions SkipNewer left on their newer versions.
	Skipped []warehouse.SwitchConflict `json:"skipped,omitempty"`
	State   State                      `json:"state"`
	// DryRun: nothing was switched; Plan lists, per product, the
	// partition keys the promote would make current (sorted).
	DryRun bool                `json:"dry_run,omitempty"`
	Plan   map[string][]string `json:"plan,omitempty"`
}

// GateError refuses a promote because review checks failed.
type GateError struct{ Failed []GateResult }

func (e *GateError) Error() string {
	parts := make([]string, len(e.Failed))
	for i, g := range e.Failed {
		parts[i] = g.Name + ": " + g.Detail
	}
	return fmt.Sprintf("%d review checks failed (%s); fix the data, or promote with --override to accept it (recorded)", len(e.Failed), strings.Join(parts, "; "))
}

const promotionsDDL = `CREATE TABLE IF NOT EXISTS _strata.backfill_promotions (
	backfill_id VARCHAR, promoted_at TIMESTAMPTZ, only_range VARCHAR, versions INTEGER, overridden VARCHAR)`

// PromoteBackfill makes staged versions of a review backfill current.
// Promotes and discards of one backfill run one at a time: a second one
// while the first runs is refused with a *PromoteBusyError naming it (a
// double click, or the UI and the CLI at once, all counted the same staged
// versions as theirs).
func (e *Engine) PromoteBackfill(ctx context.Context, id string, opt PromoteOptions) (*PromoteResult, error) {
	opt.Only = withWhere(opt.Only, opt.Where)
	release, err := e.promotes.acquire(id, "promote", opt.Only, e.now())
	if err != nil {
		return nil, err
	}
	defer release()
	st, pl, err := e.reviewable(ctx, id)
	if err != nil {
		return nil, err
	}
	if opt.Only != "" {
		// A malformed range is the caller's to fix, whatever the state:
		// checked before the review is computed.
		if _, err := e.onlyRange(pl.ID, opt.Only, nil); err != nil {
			return nil, err
		}
	}
	if st.State != StateReview {
		if st.State == StateRunning && e.running(id) == nil {
			// "is running" would have the reader wait for a backfill that
			// nothing runs: a kill, crash or shutdown stopped it (this
			// process holds the project, so no other one runs it).
			return nil, fmt.Errorf("backfill %s is not ready for review: it was interrupted before it was fully staged, and no process runs it; "+
				"finish staging it with `strata backfill resume %s %s`, then promote", id, e.project().Dir, id)
		}
		if last := e.lastPromotion(ctx, id); last != nil && st.State == StateSucceeded {
			return nil, fmt.Errorf("backfill %s is already promoted: the promote at %s made its last %d staged versions current, and nothing is staged now", id, last.At.Format(time.RFC3339), last.Versions)
		}
		return nil, fmt.Errorf("backfill %s is %s, not ready for review: only a fully staged backfill can be promoted", id, st.State)
	}
	if opt.DryRun {
		return e.promotePlan(ctx, id, pl.ID, opt)
	}
	// The gates decide; only the products they total or count are diffed.
	need := map[string]bool{}
	for _, c := range pl.Checks {
		if c.Kind != project.CheckSQL {
			p, _ := resolveProduct(pl, c.Product)
			need[p] = true
		}
	}
	rv, err := e.review(ctx, st, pl, need)
	if err != nil {
		return nil, err
	}
	var failed []GateResult
	for _, g := range rv.Gates {
		if !g.Passed {
			failed = append(failed, g)
		}
	}
	if len(failed) > 0 && !opt.Override {
		return nil, &GateError{Failed: failed}
	}
	// Whatever the outcome (made current, or refused by newer work: a
	// conflict the review lists), open pages get the review as it is now.
	defer e.pushReview(id)
	_, chosen, err := e.promoteSelection(ctx, id, pl.ID, opt.Only)
	if errors.Is(err, errNothingStaged) {
		// A review with nothing staged: a promote made it all current and
		// was killed before it recorded so (its switch commits first). The
		// catalog is the truth; the state follows it.
		if err := e.backfillEvent(ctx, id, StateSucceeded, "every staged version is current: a promote made them so and was interrupted before it recorded it"); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("backfill %s has nothing staged: an earlier promote made its versions current and was interrupted before it recorded so; it is marked succeeded now (strata backfill rollback undoes it)", id)
	}
	if err != nil {
		return nil, err
	}
	switches := make([]warehouse.Switch, len(chosen))
	for i, s := range chosen {
		switches[i] = warehouse.Switch{Product: s.Product, Partition: s.Partition, To: s.Version, Expect: warehouse.ExpectBasedOn}
	}
	res := &PromoteResult{Partitions: map[string]int{}}
	// With SkipNewer each conflict found drops its partitions and the rest
	// is tried again (newer work may land meanwhile), so this ends.
	var changed []warehouse.Switch
	for {
		changed, err = e.wh.SwitchBatchChanged(ctx, id, switches, id)
		var sce *warehouse.SwitchConflictError
		if err == nil || !opt.SkipNewer || !errors.As(err, &sce) {
			if err != nil {
				return nil, e.reviewConflict(err, id, "promote")
			}
			break
		}
		res.Skipped = append(res.Skipped, sce.Conflicts...)
		skip := map[[2]string]bool{}
		for _, c := range sce.Conflicts {
			skip[[2]string{c.Product, c.Partition}] = true
		}
		switches = slices.DeleteFunc(switches, func(s warehouse.Switch) bool { return skip[[2]string{s.Product, s.Partition}] })
		if len(switches) == 0 {
			return nil, e.reviewConflict(sce, id, "promote") // nothing left to promote
		}
	}
	// Counted are the versions this promote made current: a staged
	// version already current (made so by another way) is not this
	// promote's doing.
	refs := make([]warehouse.VersionRef, len(changed))
	for i, s := range changed {
		res.Partitions[s.Product]++
		refs[i] = warehouse.VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To}
	}
	// The promote is what makes a review backfill's versions current: event
	// triggers downstream follow it as they follow any publish.
	if len(refs) > 0 {
		e.published(pl.ID, "", id, refs)
	}
	res.At, res.Only, res.Versions, res.By = e.now().UTC(), opt.Only, len(changed), opt.Actor
	for _, g := range failed {
		res.Overridden = append(res.Overridden, g.Name)
	}
	// What is still staged is read back, not computed: the catalog is the
	// one source of it.
	left, err := e.wh.Pinned(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("promoted %d versions; then: %w", res.Versions, err)
	}
	res.Remaining = len(left)
	if _, err := e.wh.DB().ExecContext(ctx, `INSERT INTO _strata.backfill_promotions (backfill_id, promoted_at, only_range, versions, overridden, actor)
		VALUES (?, ?, ?, ?, ?, ?)`, id, res.At, opt.Only, res.Versions, strings.Join(res.Overridden, ","), opt.Actor); err != nil {
		return nil, fmt.Errorf("record promotion (the versions are current): %w", err)
	}
	msg := fmt.Sprintf("promoted %d versions", res.Versions)
	if opt.Only != "" {
		msg += " starting in " + opt.Only
	}
	if len(res.Skipped) > 0 {
		msg += fmt.Sprintf("; %d partitions with newer work skipped (--skip-newer)", len(res.Skipped))
	}
	if len(res.Overridden) > 0 {
		msg += "; review checks overridden: " + strings.Join(res.Overridden, ", ")
	}
	res.State = StateSucceeded
	if res.Remaining > 0 {
		res.State = StateReview
		msg += fmt.Sprintf("; %d versions still staged for review", res.Remaining)
	}
	if err := e.backfillEvent(ctx, id, res.State, msg); err != nil {
		return nil, err
	}
	return res, nil
}

// errNothingStaged is a review none of whose versions are staged any more.
var errNothingStaged = errors.New("no staged version left to promote")

// promoteSelection is what a promote of the range only ("" for all) would
// switch: the backfill's staged versions, and those chosen of them. The
// promote and its dry run both use it, so they cannot disagree.
func (e *Engine) promoteSelection(ctx context.Context, id, pipeline, only string) (staged, chosen []stagedVersion, err error) {
	if staged, err = e.wh.Pinned(ctx, id); err != nil {
		return nil, nil, err
	}
	if len(staged) == 0 {
		return nil, nil, fmt.Errorf("backfill %s has %w", id, errNothingStaged)
	}
	chosen = staged
	if only != "" {
		if chosen, err = e.onlyRange(pipeline, only, staged); err != nil {
			return nil, nil, err
		}
	}
	if len(chosen) == 0 {
		return nil, nil, fmt.Errorf("backfill %s has no staged version starting in %s (%d staged)", id, only, len(staged))
	}
	return staged, chosen, nil
}

// promotePlan is a promote's dry run: what it would make current now.
func (e *Engine) promotePlan(ctx context.Context, id, pipeline string, opt PromoteOptions) (*PromoteResult, error) {
	staged, chosen, err := e.promoteSelection(ctx, id, pipeline, opt.Only)
	if err != nil {
		return nil, err
	}
	res := &PromoteResult{Partitions: map[string]int{}, Plan: map[string][]string{}, DryRun: true, State: StateReview}
	for _, s := range chosen {
		res.Partitions[s.Product]++
		res.Plan[s.Product] = append(res.Plan[s.Product], s.Partition)
	}
	for _, keys := range res.Plan {
		slices.Sort(keys)
	}
	res.Only, res.Versions, res.Remaining, res.By = opt.Only, len(chosen), len(staged)-len(chosen), opt.Actor
	return res, nil
}

// onlyRange keeps the staged versions whose partition starts in the range
// "A..B" (or the one partition "A") of the pipeline's partition keys, and,
// for a pipeline with value dimensions, whose values pass its " where "
// part (cell_select.go).
func (e *Engine) onlyRange(pipeline, only string, staged []stagedVersion) ([]stagedVersion, error) {
	pl, err := e.Pipeline(pipeline)
	if err != nil {
		return nil, err
	}
	spec, err := SpecOf(pl.Partitions)
	if err != nil {
		return nil, err
	}
	rng, where, err := splitOnly(spec, only)
	if err != nil {
		return nil, &SpecError{fmt.Errorf("only %q: %w", only, err)}
	}
	keep := func(stagedVersion) bool { return true }
	if rng != "" {
		if keep, err = onlyTimes(pl, spec, only, rng); err != nil {
			return nil, err
		}
	}
	var out []stagedVersion
	for _, s := range staged {
		if keep(s) && cellMatches(spec, s.Partition, where) {
			out = append(out, s)
		}
	}
	return out, nil
}

// onlyTimes reads the range part of a promote's Only.
func onlyTimes(pl *project.Pipeline, spec partitions.Spec, only, rng string) (func(stagedVersion) bool, error) {
	if spec.Dimensional() && !strings.Contains(rng, "..") && strings.Contains(rng, partitions.KeySep) {
		if _, err := spec.Parse(strings.TrimSpace(rng)); err != nil {
			return nil, &SpecError{fmt.Errorf("only %q: %w", only, err)}
		}
		cell := strings.TrimSpace(rng)
		return func(s stagedVersion) bool { return s.Partition == cell }, nil
	}
	ts := spec.TimeOnly()
	a, b, found := strings.Cut(rng, "..")
	if !found {
		b = a
	}
	want := fmt.Sprintf("want one %s partition key of pipeline %s, or a range A..B of them", pl.Partitions.Interval, pl.ID)
	if spec.Dimensional() {
		want = fmt.Sprintf("want one %s key of pipeline %s, a range A..B of them, or one cell key (%s), then optionally where DIM=V,V", pl.Partitions.Interval, pl.ID, spec.KeyLayout())
	}
	first, err := ts.Parse(strings.TrimSpace(a))
	if err != nil {
		return nil, &SpecError{fmt.Errorf("only %q: %w; %s", only, err, want)}
	}
	last, err := ts.Parse(strings.TrimSpace(b))
	if err != nil {
		return nil, &SpecError{fmt.Errorf("only %q: %w; %s", only, err, want)}
	}
	if last.Start.Before(first.Start) {
		return nil, &SpecError{fmt.Errorf("only %q: %s is before %s; %s, the first one not after the second", only, b, a, want)}
	}
	return func(s stagedVersion) bool { return !s.Start.Before(first.Start) && s.Start.Before(last.End) }, nil
}

// DiscardBackfill drops every version a review backfill still has staged,
// or a failed atomic one: its staged versions are held from retention for
// the retry that would promote them (Output.Hold), so without a discard
// they would be kept for as long as the backfill is not retried.
func (e *Engine) DiscardBackfill(ctx context.Context, id string) (int, error) {
	release, err := e.promotes.acquire(id, "discard", "", e.now())
	if err != nil {
		return 0, err
	}
	defer release()
	st, err := e.discardable(ctx, id)
	if err != nil {
		return 0, err
	}
	if st.State != StateReview && st.State != StateFailed && st.State != StateCancelled {
		return 0, fmt.Errorf("backfill %s is %s: only a backfill ready for review (or one that failed) has staged versions to discard", id, st.State)
	}
	staged, err := e.wh.Pinned(ctx, id)
	if err != nil {
		return 0, err
	}
	refs := make([]warehouse.VersionRef, 0, len(staged))
	for _, s := range staged {
		if s.Current != s.Version {
			refs = append(refs, s.VersionRef)
		}
	}
	if len(refs) == 0 && st.State == StateReview {
		if last := e.lastPromotion(ctx, id); last != nil {
			// Its promotes made everything current: "cancelled" would
			// read as though none of it were.
			return 0, fmt.Errorf("backfill %s has nothing staged to discard: its promotes made every staged version current (the last at %s); undo them with `strata backfill rollback %s %s`",
				id, last.At.Format(time.RFC3339), e.project().Dir, id)
		}
	}
	if len(refs) > 0 {
		if err := e.wh.Discard(ctx, refs); err != nil {
			return 0, err
		}
	}
	if err := e.wh.Unpin(ctx, id); err != nil {
		return 0, err
	}
	if err := e.markDiscarded(ctx, id, "cancelled: its staged versions were discarded (strata backfill discard); a retry runs it again"); err != nil {
		return 0, err
	}
	defer e.pushReview(id)
	msg := fmt.Sprintf("discarded %d staged versions", len(refs))
	if counts, err := e.backfillCounts(ctx, id); err == nil && counts[StateSucceeded] > 0 {
		// A promote of a part came first: that part stays current, and
		// reading "cancelled" alone one would think nothing of it is.
		msg += fmt.Sprintf("; the %d partitions promoted before stay current", counts[StateSucceeded])
	}
	return len(refs), e.backfillEvent(ctx, id, StateCancelled, msg)
}

// discardable is the status of a backfill that stages its versions (review
// or atomic); one that published as it ran has nothing staged to discard.
func (e *Engine) discardable(ctx context.Context, id string) (*BackfillStatus, error) {
	st, err := e.Backfill(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Spec.Publish != PublishReview && st.Spec.Publish != PublishAtomic {
		return nil, fmt.Errorf("backfill %s was published %s: it made its versions current as it ran and has nothing staged to discard", id, st.Spec.Publish)
	}
	return st, nil
}

// RollbackBackfill switches every partition a backfill's promotes made
// current back to the version current before, in one transaction. A
// partition with a newer version since refuses the whole rollback, with
// the list (a *warehouse.SwitchConflictError).
func (e *Engine) RollbackBackfill(ctx context.Context, id string) (int, error) {
	if spec, err := e.backfillSpec(ctx, id); err == nil && spec.Publish != PublishReview {
		// Only a review's promotes are recorded as one switch to undo; a
		// backfill that published as it ran is undone partition by
		// partition, and the refusal says how.
		return 0, fmt.Errorf("backfill %s published with --publish %s, and a whole backfill can be rolled back only when it was launched with --publish review (its promotes are recorded as one switch); roll back a partition with %s (`strata diff DIR PRODUCT --partition KEY --from-version A --to-version B` compares two kept versions first)", id, spec.Publish, e.rollbackHint(ctx, id))
	}
	if _, _, err := e.reviewable(ctx, id); err != nil {
		return 0, err
	}
	back, err := e.wh.RevertBatch(ctx, id)
	defer e.pushReview(id) // done, or refused by newer work in the way
	if errors.Is(err, warehouse.ErrNotFound) {
		return 0, fmt.Errorf("backfill %s made nothing current that is not rolled back already", id)
	}
	if err != nil {
		return 0, e.reviewConflict(err, id, "rollback")
	}
	// What the promote made current is replaced again: downstream event
	// triggers follow the rollback as they followed the promote.
	refs := make([]warehouse.VersionRef, len(back))
	for i, s := range back {
		refs[i] = warehouse.VersionRef{Product: s.Product, Partition: s.Partition, Version: s.To}
	}
	e.published(e.backfillPipeline(ctx, id), "", id, refs)
	return len(back), e.backfillEvent(ctx, id, StateRolledBack, fmt.Sprintf("rolled back %d partitions to the versions current before the promote", len(back)))
}

// promotions lists a backfill's recorded promotes.
func (e *Engine) promotions(ctx context.Context, id string) ([]Promotion, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT promoted_at, only_range, versions, overridden, coalesce(actor, '') FROM _strata.backfill_promotions
		WHERE backfill_id = ? ORDER BY promoted_at`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Promotion{}
	for rows.Next() {
		var p Promotion
		var over string
		if err := rows.Scan(&p.At, &p.Only, &p.Versions, &over, &p.By); err != nil {
			return nil, err
		}
		if over != "" {
			p.Overridden = strings.Split(over, ",")
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// rollbackHint is the `strata rollback` command line that undoes a
// backfill's first partition: the product, partition and the version
// current before it, when the catalog still has one that was current;
// otherwise the command's form, with the placeholders to fill.
func (e *Engine) rollbackHint(ctx context.Context, id string) string {
	dir := e.project().Dir
	generic := fmt.Sprintf("`strata rollback %s PRODUCT --partition KEY --to-version N`", dir)
	var product, partition string
	var version int
	err := e.wh.DB().QueryRowContext(ctx, `SELECT product, partition, version FROM _strata.versions
		WHERE starts_with(run_id, ?) ORDER BY partition_start, product, version LIMIT 1`, id+":").Scan(&product, &partition, &version)
	if err != nil {
		return generic
	}
	var before sql.NullInt64
	if err := e.wh.DB().QueryRowContext(ctx, `SELECT max(version) FROM _strata.versions
		WHERE product = ? AND partition = ? AND version < ? AND coalesce(ever_current, true)`, product, partition, version).Scan(&before); err != nil || !before.Valid {
		return generic
	}
	return fmt.Sprintf("`strata rollback %s %s --partition %s --to-version %d` (the version current before it there; likewise for its other partitions)", dir, product, partition, before.Int64)
}
