package engine

import (
	"context"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// A plan of millions of cells (365 days × 500 customers × 20 regions)
// cannot afford a Go value per cell: reading every current version through
// database/sql into maps costs seconds and a gigabyte. When every version
// in the box can be judged from its own row (it read nothing: its state is
// missing, stale by code or current), DuckDB counts the cells per state in
// one aggregate and Go classifies only the page it shows. A box holding a
// version that read upstreams (its staleness depends on other rows) or a
// pipeline with rollups (a week runs when one of its days runs) plans cell
// by cell as before; both give the same plan (TestPlanCountedEqualsEach).

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
	if len(coarse) > 0 || len(fine) == 0 {
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
	products := make([]any, len(fine))
	for i, b := range fine {
		products[i] = ProductName(t.pl, b)
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
