package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill never overwrites newer work. Each partition run publishes with
// a compare-and-set on the current versions the backfill planned against
// (RunOptions.BasedOn): when another run made a version current meanwhile,
// nothing of the partition becomes current, its versions are kept staged and
// the run ends StateConflict. An atomic backfill's promote makes the same
// check for every staged version (its based_on), holds back the partitions
// that changed and promotes nothing until they are settled. Either way the backfill ends
// StateNeedsAttention, and a user resolves each conflict: promote anyway
// (the backfill's version becomes current over the newer one) or keep newer
// (the backfill's version is discarded).

// BackfillConflict is one product partition a backfill did not make current
// because newer work was current.
type BackfillConflict struct {
	Partition string `json:"partition"`
	RunID     string `json:"run_id"`
	Product   string `json:"product"`
	Version   int    `json:"version"`  // the backfill's version, kept, not current
	BasedOn   int    `json:"based_on"` // the current version it was planned against (0: none)
	Current   int    `json:"current"`  // the newer current version (0: none)
}

// plannedBefore is the BasedOn of a product partition whose current
// version is newer than the backfill itself (another run published it after
// the launch, while the backfill was stopped): the backfill planned against
// an earlier version, so publishing over it is a conflict.
const plannedBefore = -2

// basedOn is what a run of blocks for partition key of backfill id
// (launched then) is planned against: each product's current version as the
// backfill read it (0: none), or plannedBefore for newer work.
func (pd *planData) basedOn(pl *project.Pipeline, blocks []*project.Block, key, id string, launched time.Time) map[string]int {
	out := make(map[string]int, len(blocks))
	for _, b := range blocks {
		prod := ProductName(pl, b)
		vi, ok := pd.based()[prod][key]
		switch {
		case !ok:
			out[prod] = 0
		case vi.createdAt.After(launched) && !strings.HasPrefix(vi.runID, id+":"):
			out[prod] = plannedBefore
		default:
			out[prod] = vi.version
		}
	}
	return out
}

// stagedRef is a version a backfill staged, with the run that wrote it
// and the current version it was planned against.
type stagedRef struct {
	ref     warehouse.VersionRef
	runID   string
	basedOn int
}

func (e *Engine) stagedRefs(ctx context.Context, id string) ([]stagedRef, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.product, v.partition, max(v.version), arg_max(v.run_id, v.version), arg_max(coalesce(v.based_on, 0), v.version)
		FROM _strata.versions v
		LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition AND c.version = v.version
		WHERE starts_with(v.run_id, ?) AND c.version IS NULL GROUP BY v.product, v.partition ORDER BY 2, 1`, id+":")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stagedRef
	for rows.Next() {
		var s stagedRef
		if err := rows.Scan(&s.ref.Product, &s.ref.Partition, &s.ref.Version, &s.runID, &s.basedOn); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// promoteStaged switches an atomic backfill's staged versions in, in one
// compare-and-set transaction (logged under the backfill's id, so that a
// rollback can revert it). When a partition's current version is no longer
// the one planned against, nothing is switched: an atomic backfill makes
// nothing current until every partition is settled (it used to promote the
// rest, leaving weeks and days of two computations side by side). The runs
// of those partitions end StateConflict; it returns how many versions it
// promoted and how many runs it held back.
func (e *Engine) promoteStaged(ctx context.Context, id string) (promoted, held int, err error) {
	staged, err := e.stagedRefs(ctx, id)
	if err != nil {
		return 0, 0, err
	}
	hold := map[string]string{} // run id -> why
	if len(staged) > 0 {
		switches := make([]warehouse.Switch, len(staged))
		for i, s := range staged {
			switches[i] = warehouse.Switch{Product: s.ref.Product, Partition: s.ref.Partition, To: s.ref.Version, Expect: s.basedOn}
		}
		changed, err := e.wh.SwitchBatchChanged(ctx, id, switches, id) // releases what the staging held
		var sce *warehouse.SwitchConflictError
		if !errors.As(err, &sce) {
			if err != nil {
				return 0, 0, err
			}
			refs := make([]warehouse.VersionRef, len(changed))
			for i, sw := range changed {
				refs[i] = warehouse.VersionRef{Product: sw.Product, Partition: sw.Partition, Version: sw.To}
			}
			if len(refs) > 0 {
				e.published(e.backfillPipeline(ctx, id), "", id, refs)
			}
			return len(changed), 0, nil
		}
		for _, c := range sce.Conflicts {
			for _, s := range staged {
				if s.ref.Product == c.Product && s.ref.Partition == c.Partition {
					hold[s.runID] += fmt.Sprintf("; %s partition %s: planned against %s, but %s is current now", c.Product, c.Partition, vName(c.Expected), vName(c.Current))
				}
			}
		}
	}
	var evs []Event
	for _, s := range staged {
		why, ok := hold[s.runID]
		if !ok || slices.ContainsFunc(evs, func(ev Event) bool { return ev.RunID == s.runID }) {
			continue
		}
		evs = append(evs, Event{RunID: s.runID, BackfillID: id, Pipeline: e.backfillPipeline(ctx, id), Partition: s.ref.Partition,
			State: StateConflict, Error: "conflict: newer work was published during the backfill, so this partition was not promoted (nor, the backfill being atomic, any other until this is settled)" + why})
	}
	if len(evs) > 0 {
		if err := e.store.Write(ctx, evs...); err != nil {
			return promoted, len(evs), err
		}
	}
	return promoted, len(evs), nil
}

func vName(v int) string {
	switch v {
	case 0:
		return "no version"
	case plannedBefore:
		return "an earlier version"
	}
	return fmt.Sprintf("v%d", v)
}

func (e *Engine) backfillPipeline(ctx context.Context, id string) string {
	spec, _ := e.backfillSpec(ctx, id)
	return spec.Pipeline
}

// needsAttention is the message of a backfill that ended with conflicts.
func (e *Engine) needsAttention(id string, conflicts int) string {
	dir := e.project().Dir
	return fmt.Sprintf("needs attention: %d partitions were not made current because newer work was published during the backfill; "+
		"promote the backfill's versions anyway with `strata backfill promote-anyway %s %s`, or keep the newer ones with `strata backfill keep-newer %s %s`",
		conflicts, dir, id, dir, id)
}

// Conflicts lists the product partitions a backfill left staged because of
// newer work, by partition.
func (e *Engine) Conflicts(ctx context.Context, id string) ([]BackfillConflict, error) {
	runs, err := e.conflictRuns(ctx, id)
	if err != nil || len(runs) == 0 {
		return nil, err
	}
	args := make([]any, 0, len(runs))
	for _, r := range runs {
		args = append(args, r)
	}
	ph := strings.TrimSuffix(strings.Repeat("?,", len(runs)), ",")
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.partition, v.run_id, v.product, max(v.version), arg_max(coalesce(v.based_on, 0), v.version), coalesce(any_value(c.version), 0)
		FROM _strata.versions v LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition
		WHERE v.run_id IN (`+ph+`) AND NOT v.is_current GROUP BY v.partition, v.run_id, v.product ORDER BY 2, 3`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []BackfillConflict
	for rows.Next() {
		var c BackfillConflict
		if err := rows.Scan(&c.Partition, &c.RunID, &c.Product, &c.Version, &c.BasedOn, &c.Current); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// conflictRuns are the runs of a backfill whose latest state is conflict.
func (e *Engine) conflictRuns(ctx context.Context, id string) ([]string, error) {
	slots, err := e.partitionSlots(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range slots {
		if s.State == StateConflict {
			out = append(out, s.Run)
		}
	}
	slices.Sort(out)
	return out, nil
}

// Resolve settles a backfill's conflicts, those of the given partitions
// (none: all): with keepNewer the backfill's versions are discarded and the
// newer ones stay current (the partitions count as skipped); otherwise they
// are promoted anyway, over the newer versions, in one transaction (the
// partitions count as succeeded). Once no conflict is left the backfill
// ends as it would have: succeeded. It returns how many partitions it
// settled.
func (e *Engine) Resolve(ctx context.Context, id string, keepNewer bool, partitions []string) (int, error) {
	if e.running(id) != nil {
		return 0, fmt.Errorf("backfill %s is still running; resolve its conflicts when it ends", id)
	}
	all, err := e.Conflicts(ctx, id)
	if err != nil {
		return 0, err
	}
	settled, err := e.settleInterrupted(ctx, id, all)
	if err != nil {
		return 0, err
	}
	if len(all) == 0 {
		if settled > 0 {
			return settled, e.resolved(ctx, id, settled, "settled as their resolve had left them before a restart")
		}
		return 0, fmt.Errorf("backfill %s has no conflicts to resolve", id)
	}
	var pick []BackfillConflict
	for _, c := range all {
		if len(partitions) == 0 || slices.Contains(partitions, c.Partition) {
			pick = append(pick, c)
		}
	}
	if len(pick) == 0 {
		var have []string
		for _, c := range all {
			have = append(have, c.Partition)
		}
		return 0, fmt.Errorf("backfill %s has no conflict in partitions %s (conflicts: %s)", id, strings.Join(partitions, ", "), strings.Join(slices.Compact(have), ", "))
	}
	refs := make([]warehouse.VersionRef, len(pick))
	for i, c := range pick {
		refs[i] = warehouse.VersionRef{Product: c.Product, Partition: c.Partition, Version: c.Version}
	}
	spec, _ := e.backfillSpec(ctx, id)
	atomic := spec.Publish == PublishAtomic
	state, verb := StateSucceeded, "promoted anyway over the newer version"
	switch {
	case keepNewer:
		state, verb = StateSkipped, "skipped: kept the newer version; the backfill's was discarded"
		err = e.wh.Discard(ctx, refs)
	case atomic:
		// Its versions become current together: the ones promoted anyway
		// with all the others it staged, in one transaction.
		if len(pick) < len(all) {
			return 0, fmt.Errorf("backfill %s is atomic: its versions become current together, once every conflict is settled, so promote-anyway takes all %d conflicts at once (without --partition); keep-newer can settle some first", id, len(all))
		}
		err = e.promoteAtomicAnyway(ctx, id, pick)
	default:
		err = e.wh.Promote(ctx, refs, id)
		if err == nil {
			e.published(spec.Pipeline, "", id, refs)
		}
	}
	if err != nil {
		return 0, err
	}
	pl := e.backfillPipeline(ctx, id)
	var evs []Event
	for _, c := range pick {
		if len(evs) > 0 && evs[len(evs)-1].RunID == c.RunID {
			continue
		}
		evs = append(evs, Event{RunID: c.RunID, BackfillID: id, Pipeline: pl, Partition: c.Partition, State: state, Error: verb})
	}
	if err := e.store.Write(ctx, evs...); err != nil {
		return 0, err
	}
	what := strings.TrimPrefix(verb, "skipped: ")
	if keepNewer && atomic && len(pick) == len(all) {
		// The last conflict settled: the rest becomes current now, in one
		// transaction (or is held again by newer work since).
		n, held, err := e.promoteStaged(ctx, id)
		if err != nil {
			return 0, err
		}
		if held == 0 {
			what += fmt.Sprintf("; then promoted its other %d versions atomically", n)
		}
	}
	if keepNewer {
		what += e.staleAfterKeep(ctx, id)
	}
	return len(evs) + settled, e.resolved(ctx, id, len(evs), what)
}

// promoteAtomicAnyway makes every version an atomic backfill staged
// current in one transaction: those of the conflicts in pick over the
// newer versions current there (compare-and-set on those), the others
// over the versions they were planned against.
func (e *Engine) promoteAtomicAnyway(ctx context.Context, id string, pick []BackfillConflict) error {
	staged, err := e.stagedRefs(ctx, id)
	if err != nil {
		return err
	}
	over := map[[2]string]int{}
	for _, c := range pick {
		over[[2]string{c.Product, c.Partition}] = c.Current
	}
	switches := make([]warehouse.Switch, len(staged))
	refs := make([]warehouse.VersionRef, len(staged))
	for i, s := range staged {
		expect, anyway := over[[2]string{s.ref.Product, s.ref.Partition}]
		if !anyway {
			expect = s.basedOn
		}
		switches[i] = warehouse.Switch{Product: s.ref.Product, Partition: s.ref.Partition, To: s.ref.Version, Expect: expect}
		refs[i] = s.ref
	}
	if len(switches) == 0 {
		return nil
	}
	if err := e.wh.SwitchBatch(ctx, id, switches, id); err != nil {
		return fmt.Errorf("promote anyway of atomic backfill %s (nothing was switched; newer work landed since the conflicts were listed: list them again): %w", id, err)
	}
	e.published(e.backfillPipeline(ctx, id), "", id, refs)
	return nil
}

// staleAfterKeep says what in the backfill's range is stale once the newer
// work was kept: that work was computed before the backfill made the other
// partitions current (a week a plain run made from one day, say), so its
// rollups can be missing days or its inputs be older than what is current.
// Saying only "succeeded" would leave it for nobody to find. "" when
// nothing is stale (or the plan cannot be made: the resolve itself stands).
func (e *Engine) staleAfterKeep(ctx context.Context, id string) string {
	spec, err := e.backfillSpec(ctx, id)
	if err != nil {
		return ""
	}
	spec.Reprocess = ReprocessStale
	plan, err := e.Plan(ctx, spec, 0, -1)
	if err != nil {
		return ""
	}
	var keys []string
	for _, p := range append(plan.Partitions, plan.Rollups...) {
		if p.State == "stale" {
			keys = append(keys, p.Key)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	shown := keys
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(keys)-5))
	}
	return fmt.Sprintf("; %d partitions are stale now (%s): the newer work kept was computed without what this backfill made current; "+
		"bring them up to date with `strata backfill %s %s --from %s --to %s --reprocess stale`",
		len(keys), strings.Join(shown, ", "), e.project().Dir, spec.Pipeline, spec.From, spec.To)
}

// resolved ends the backfill succeeded once no conflict (nor anything that
// did not succeed) is left.
func (e *Engine) resolved(ctx context.Context, id string, n int, what string) error {
	counts, err := e.backfillCounts(ctx, id)
	if err != nil {
		return err
	}
	if counts[StateConflict] == 0 && counts[StateFailed]+counts[StateCancelled]+counts[StateRunning] == 0 {
		// Nothing is left for it to promote: what it still holds from
		// retention (a version a rollback made current before the resolve,
		// say) would otherwise be held for good.
		if spec, err := e.backfillSpec(ctx, id); err == nil && spec.Publish != PublishReview {
			if err := e.wh.Unpin(ctx, id); err != nil {
				return err
			}
		}
		return e.backfillEvent(ctx, id, StateSucceeded, fmt.Sprintf("conflicts resolved (last: %d partitions %s)", n, what))
	}
	if left := counts[StateConflict]; left > 0 && n > 0 {
		// The message the backfill ended with counted the conflicts then;
		// after a resolve of some it would still say all of them wait.
		return e.backfillEvent(ctx, id, StateNeedsAttention, fmt.Sprintf("%d partitions %s; ", n, what)+e.needsAttention(id, left))
	}
	return nil
}

// settleInterrupted records what an earlier resolve did to runs still in
// conflict whose versions are no longer kept aside (listed is what is): a
// kill -9 between its transaction and its events. A run with a current
// version was promoted anyway (succeeded); one without was discarded for
// the newer work (skipped).
func (e *Engine) settleInterrupted(ctx context.Context, id string, listed []BackfillConflict) (int, error) {
	runs, err := e.conflictRuns(ctx, id)
	if err != nil {
		return 0, err
	}
	var evs []Event
	pl := e.backfillPipeline(ctx, id)
	for _, r := range runs {
		if slices.ContainsFunc(listed, func(c BackfillConflict) bool { return c.RunID == r }) {
			continue
		}
		var current int
		var part string
		if err := e.wh.DB().QueryRowContext(ctx, `SELECT (SELECT count(*) FROM _strata.versions WHERE run_id = $1 AND is_current),
			(SELECT coalesce(any_value(partition_key), '') FROM _strata.run_events WHERE run_id = $1 AND block_id = '')`, r).Scan(&current, &part); err != nil {
			return 0, err
		}
		ev := Event{RunID: r, BackfillID: id, Pipeline: pl, Partition: part, State: StateSkipped,
			Error: "skipped: kept the newer version; the backfill's was discarded (by a resolve a restart interrupted)"}
		if current > 0 {
			ev.State, ev.Error = StateSucceeded, "promoted anyway over the newer version (by a resolve a restart interrupted)"
		}
		evs = append(evs, ev)
	}
	if len(evs) == 0 {
		return 0, nil
	}
	return len(evs), e.store.Write(ctx, evs...)
}
