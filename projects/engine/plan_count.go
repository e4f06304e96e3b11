package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A plan of millions of cells (365 days × 500 customers × 20 regions)
// cannot afford a Go value per cell: reading every current version through
// database/sql into maps costs seconds and a gigabyte. DuckDB counts the
// box's cells per state (plan_count_sql.go: versions that read nothing,
// and versions that read upstreams, judged against the rows they read)
// and Go classifies only the page it shows, with the rollups of its cells
// (plan_rollup_count.go counts the others). What the SQL cannot decide
// exactly plans cell by cell as before; both give the same plan
// (TestPlanCountedEqualsEach, TestPlanCountedReads, TestPlanCountedRollups).

// cellCounts are a box's cells by what decides their action: failed
// (last run failed or cancelled) with or without a missing product,
// missing, stale, current. Cells DuckDB finds nothing for are missing.
type cellCounts struct {
	failedMissing, failedPresent, stale, current, found int
}

// planCounted is Plan from counts: ok false when the box needs planning
// cell by cell.
func (e *Engine) planCounted(ctx context.Context, t *target, snapshot string, offset, limit int) (*Plan, bool, error) {
	fine, coarse := t.split()
	if len(fine) == 0 {
		return nil, false, nil
	}
	boxes, ok := t.rollupBoxes(coarse)
	if !ok {
		return nil, false, nil
	}
	hashes, err := CodeHashes(e.project().Dir, t.pl)
	if err != nil {
		return nil, false, err
	}
	c, ok, err := e.countCells(ctx, t, fine, hashes)
	if err != nil || !ok {
		return nil, false, err
	}
	it, err := t.pspec.IterBox(t.box)
	if err != nil {
		return nil, false, err
	}
	// The page's cells, in the plan's order.
	var page []partitions.Partition
	i := 0
	for p := range it {
		if limit >= 0 && i >= offset+limit {
			break
		}
		if i >= offset {
			page = append(page, p)
		}
		i++
	}
	keys := make([]string, len(page))
	for j, p := range page {
		keys[j] = p.Key
	}
	// The page's rollups, and their days in the range (whether they run).
	var rt *rollupTracker
	if len(boxes) > 0 {
		rt = newRollupTracker(t, &planData{coarse: coarse})
		seen := map[string]bool{}
		for _, p := range page {
			seen[p.Key] = true
			rt.add(p, false)
		}
		for _, r := range rt.all() {
			keys = append(keys, r.part.Key)
			for _, f := range rt.finesOf(r) {
				if !seen[f.Key] {
					seen[f.Key] = true
					keys = append(keys, f.Key)
				}
			}
		}
	}
	pd, err := e.pagePlanData(ctx, t, fine, coarse, hashes, keys)
	if err != nil {
		return nil, false, err
	}
	plan := newPlan(e, t, snapshot, pd)
	reasons := &staleReasons{e: e, pl: t.pl, pd: pd, memo: map[string]string{}}
	for _, p := range page {
		pp := pd.classify(t.pl, p, string(t.pspec.Interval), pd.fine, t.spec.Reprocess)
		reasons.refine(ctx, &pp)
		plan.Partitions = append(plan.Partitions, pp)
	}
	if rt != nil {
		sel, err := t.pspec.Selection(t.box)
		if err != nil {
			return nil, false, err
		}
		rt.orderAsBox(sel)
		plan.Rollups = pageRollups(ctx, t, pd, rt, reasons)
	}
	missing := t.total - c.found
	byState := map[string]int{"missing": missing, "failed": c.failedMissing + c.failedPresent, "stale": c.stale, "current": c.current}
	for s, n := range byState {
		if n > 0 {
			plan.ByState[s] = n
		}
	}
	// As classify decides: a "missing" variable (some product has no
	// version) runs under every policy; failed ones under failed, stale, all.
	switch t.spec.Reprocess {
	case ReprocessAll:
		plan.ToRun = t.total
	case ReprocessStale:
		plan.ToRun = t.total - c.current
	case ReprocessFailed:
		plan.ToRun = missing + c.failedMissing + c.failedPresent
	default:
		plan.ToRun = missing + c.failedMissing
	}
	plan.ToSkip = t.total - plan.ToRun
	for _, prod := range plan.Products {
		if plan.Total > 0 {
			plan.ByProduct[prod] = [2]int{plan.ToRun, plan.ToSkip}
		}
	}
	if ok, err := e.countRollups(ctx, t, fine, boxes, hashes, plan); err != nil || !ok {
		return nil, false, err
	}
	return plan, true, nil
}

// sqlArray is a subquery over the values, which DuckDB plans as a hash
// semi join.
func sqlArray(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = sqlQuote(v)
	}
	return "(SELECT unnest([" + strings.Join(q, ", ") + "]::VARCHAR[]))"
}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func sqlList(vs []string) string {
	if len(vs) == 0 {
		return "(NULL)"
	}
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = sqlQuote(v)
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// pagePlanData is the plan data of the page's cells only: their versions,
// what those read (pageReads) and their last runs.
func (e *Engine) pagePlanData(ctx context.Context, t *target, fine []*project.Block, coarse map[string][]*project.Block, hashes map[string]string, keys []string) (*planData, error) {
	pd := &planData{hashes: hashes, fine: fine, coarse: coarse, timePos: t.pl.Partitions.TimePos,
		current: map[string]map[string]versionInfo{}, lastRun: map[string]State{}}
	if len(keys) == 0 {
		return pd, nil
	}
	// the page's cells' products, and its rollups' (at their keys)
	products := make([]any, len(fine))
	for i, b := range fine {
		products[i] = ProductName(t.pl, b)
	}
	for _, iv := range sortedKeys(coarse) {
		for _, b := range coarse[iv] {
			products = append(products, ProductName(t.pl, b))
		}
	}
	var err error
	if pd.current, err = e.planVersionsOf(ctx, products, t.spec.Into, keys); err != nil {
		return nil, err
	}
	if err := e.pageReads(ctx, t, pd); err != nil {
		return nil, err
	}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT partition_key, arg_max(state, seq) FROM _strata.run_events
		WHERE pipeline = ? AND block_id = '' AND state IN ('succeeded', 'failed', 'cancelled') AND partition_key IN `+sqlList(keys)+`
		GROUP BY partition_key`, t.pl.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, s string
		if err := rows.Scan(&k, &s); err != nil {
			return nil, err
		}
		pd.lastRun[k] = State(s)
	}
	return pd, rows.Err()
}

// pageReads adds to pd.current what classify looks up for the page's
// versions: the versions of the partitions they read and, of the
// pipeline's own products, every current partition inside the ranges of
// the versions that read them (unreadUpstream). Products of other
// pipelines are loaded as loadReadProducts loads them: version and run.
func (e *Engine) pageReads(ctx context.Context, t *target, pd *planData) error {
	own := map[string]bool{}
	for _, b := range t.pl.Blocks {
		if b.Entry != project.EntryExport {
			own[ProductName(t.pl, b)] = true
		}
	}
	parts := map[string][]string{}
	var lo, hi time.Time
	for _, byKey := range pd.current {
		for _, vi := range byKey {
			for prod, read := range vi.upstream {
				for part := range read {
					parts[prod] = append(parts[prod], part)
				}
				if own[prod] && vi.start.Before(vi.end) {
					if lo.IsZero() || vi.start.Before(lo) {
						lo = vi.start
					}
					if vi.end.After(hi) {
						hi = vi.end
					}
				}
			}
		}
	}
	for _, prod := range slices.Sorted(maps.Keys(parts)) {
		ps := parts[prod]
		if own[prod] {
			cond, args := " AND (v.partition IN "+sqlList(ps), []any{}
			if !lo.IsZero() {
				cond += " OR (v.partition_start >= ? AND v.partition_start < ?)"
				args = append(args, lo, hi)
			}
			got, err := e.planVersionsWhere(ctx, []any{prod}, t.spec.Into, cond+")", args...)
			if err != nil {
				return err
			}
			if pd.current[prod] == nil {
				pd.current[prod] = map[string]versionInfo{}
			}
			maps.Copy(pd.current[prod], got[prod])
			continue
		}
		chosen, args := warehouse.ChosenVersion(t.spec.Into)
		rows, err := e.wh.DB().QueryContext(ctx, `SELECT v.partition, v.version, v.run_id FROM _strata.versions v
			WHERE `+chosen+` AND v.product = ? AND v.partition IN `+sqlList(ps), append(args, prod)...)
		if err != nil {
			return fmt.Errorf("read current versions of read products: %w", err)
		}
		for rows.Next() {
			var part string
			var vi versionInfo
			if err := rows.Scan(&part, &vi.version, &vi.runID); err != nil {
				rows.Close()
				return err
			}
			if pd.current[prod] == nil {
				pd.current[prod] = map[string]versionInfo{}
			}
			pd.current[prod][part] = vi
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}
