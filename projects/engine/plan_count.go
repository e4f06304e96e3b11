package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
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

// countCells counts the cells of t's box by state in DuckDB; ok is false
// when a version in the box read upstreams (classify compares them with
// other rows' versions: not a per-row question).
func (e *Engine) countCells(ctx context.Context, t *target, fine []*project.Block, hashes map[string]string) (cellCounts, bool, error) {
	inBox, err := boxPredicate(t)
	if err != nil {
		return cellCounts{}, false, err
	}
	products := make([]any, len(fine))
	var hashCase strings.Builder
	hashCase.WriteString("CASE v.product")
	for i, b := range fine {
		prod := ProductName(t.pl, b)
		products[i] = prod
		fmt.Fprintf(&hashCase, " WHEN %s THEN %s", sqlQuote(prod), sqlQuote(hashes[b.ID]))
	}
	hashCase.WriteString(" END")
	ph := strings.TrimSuffix(strings.Repeat("?,", len(products)), ",")
	chosen, cargs := warehouse.ChosenVersion(t.spec.Into)
	credit, args := warehouse.CreditOf(t.spec.Into) // an environment's credits (warehouse/version_credit.go)
	args = append(append(args, cargs...), products...)
	args = append(args, t.pl.ID)
	// ver: per cell, how many fine products have a version, whether one
	// was computed by other code, whether one read upstreams. last: the
	// cell's last finished run. A cell is failed, else missing, else
	// stale, else current (classify's order).
	ver := `SELECT v.partition AS k, count(*) AS have,
			bool_or(v.code_hash IS DISTINCT FROM ` + hashCase.String() + ` AND ` + credit + ` IS DISTINCT FROM ` + hashCase.String() + `) AS stale,
			bool_or(coalesce(CAST(v.upstream AS VARCHAR), '') <> '{}') AS reads
		FROM _strata.versions v
		WHERE ` + chosen + ` AND v.product IN (` + ph + `) AND ` + inBox("v.partition") + `
		GROUP BY v.partition`
	if len(fine) == 1 {
		// One product, one chosen version per cell: no grouping (the
		// GROUP BY over millions of keys is most of the query).
		ver = `SELECT v.partition AS k, 1 AS have,
			(v.code_hash IS DISTINCT FROM ` + hashCase.String() + ` AND ` + credit + ` IS DISTINCT FROM ` + hashCase.String() + `) AS stale,
			coalesce(CAST(v.upstream AS VARCHAR), '') <> '{}' AS reads
		FROM _strata.versions v
		WHERE ` + chosen + ` AND v.product IN (` + ph + `) AND ` + inBox("v.partition")
	}
	q := `WITH ver AS (` + ver + `), last AS (
		SELECT partition_key AS k, arg_max(state, seq) AS s FROM _strata.run_events
		WHERE pipeline = ? AND block_id = '' AND state IN ('succeeded', 'failed', 'cancelled') AND ` + inBox("partition_key") + `
		GROUP BY partition_key
	), cell AS (
		SELECT coalesce(ver.have, 0) AS have, coalesce(ver.stale, false) AS stale, coalesce(ver.reads, false) AS reads,
			coalesce(last.s IN ('failed', 'cancelled'), false) AS failed
		FROM ver FULL OUTER JOIN last ON ver.k = last.k
	)
	SELECT count(*) FILTER (WHERE failed AND have < ?), count(*) FILTER (WHERE failed AND have >= ?),
		count(*) FILTER (WHERE NOT failed AND have >= ? AND stale), count(*) FILTER (WHERE NOT failed AND have >= ? AND NOT stale),
		count(*) FILTER (WHERE failed OR have >= ?), count(*) FILTER (WHERE reads)
	FROM cell`
	n := len(fine)
	args = append(args, n, n, n, n, n)
	var c cellCounts
	var reads int
	if err := e.wh.DB().QueryRowContext(ctx, q, args...).Scan(&c.failedMissing, &c.failedPresent, &c.stale, &c.current, &c.found, &reads); err != nil {
		return cellCounts{}, false, fmt.Errorf("count the plan's cells: %w", err)
	}
	return c, reads == 0, nil
}

// boxPredicate returns a SQL condition on a key column: the key is a cell
// of t's box, spelled as IterBox spells it (its part count, its time part
// one of the range's keys, each value one of the selected).
func boxPredicate(t *target) (func(col string) string, error) {
	s := t.pspec
	sel, err := s.Selection(t.box)
	if err != nil {
		return nil, err
	}
	hasTime := s.Interval != partitions.None
	var times []string
	if hasTime {
		it, err := s.TimeOnly().Iter(t.box.From, t.box.To)
		if err != nil {
			return nil, err
		}
		for p := range it {
			times = append(times, p.Key)
		}
	}
	nparts := len(s.Dims)
	if hasTime {
		nparts++
	}
	// split_part and a semi join per part: string_split builds a list per
	// row and a long IN list is a chain of comparisons, each costing
	// seconds of DuckDB CPU over millions of versions.
	return func(col string) string {
		if nparts == 1 && hasTime {
			return col + " IN " + sqlArray(times)
		}
		part := func(i int) string { return fmt.Sprintf("split_part(%s, '%s', %d)", col, partitions.KeySep, i+1) }
		// no more parts than the layout's: not nparts separators
		conds := []string{col + " NOT LIKE '" + strings.Repeat("%"+partitions.KeySep, nparts) + "%'"}
		if hasTime {
			conds = append(conds, part(s.TimePos)+" IN "+sqlArray(times))
		}
		for i, vs := range sel {
			pos := i
			if hasTime && i >= s.TimePos {
				pos++
			}
			conds = append(conds, part(pos)+" IN "+sqlArray(vs))
		}
		return "(" + strings.Join(conds, " AND ") + ")"
	}, nil
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

// pagePlanData is the plan data of the page's cells only: their versions
// and last runs (none of them read upstreams, countCells checked).
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
