package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// A rollup runs when its own state asks for it (classify under the
// policy) or when one of its days in the range runs: its rows change. The
// totals of a counted plan count both in DuckDB: the days that skip, by
// the week (and values) they belong to, in a temporary table; a week
// skips when it skips itself and all its days in the range skip. The page
// of rollups a plan lists (those of its page of cells) is classified in
// Go, each from its days' decisions, as planEach does.

// countRollups adds the totals of boxes' rollups to plan: by state,
// how many, how many run, and their products' run and skip counts. ok
// false when the SQL cannot decide some cell or rollup.
func (e *Engine) countRollups(ctx context.Context, t *target, fine []*project.Block, boxes []*rollupBox, hashes map[string]string, plan *Plan) (bool, error) {
	if len(boxes) == 0 {
		return true, nil
	}
	fq, err := newCountQuery(t, fine, hashes)
	if err != nil {
		return false, err
	}
	fwith, fargs, _, ok, err := fq.decisions(ctx, e)
	if err != nil || !ok {
		return false, err
	}
	conn, err := e.wh.DB().Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	tmp := "plan_skips_" + newNonce()
	defer func() { _, _ = conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+tmp) }()
	for _, rb := range boxes {
		cq, err := newCountQuery(rb.t, rb.blocks, hashes)
		if err != nil {
			return false, err
		}
		cwith, cargs, c, ok, err := cq.decisions(ctx, e)
		if err != nil || !ok {
			return false, err
		}
		// The days that skip, by the rollup cell they belong to.
		days, weeks := rb.weekTables()
		if _, err := conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+tmp); err != nil {
			return false, err
		}
		if _, err := conn.ExecContext(ctx, `CREATE TEMP TABLE `+tmp+` AS `+fwith+`
			SELECT `+rollupKeyOf("d.k", "m.w", fq.box)+` AS rk, count(*) AS n
			FROM decided d JOIN `+days+` ON m.d = `+fq.box.part("d.k", fq.box.timePos)+`
			WHERE NOT d.run GROUP BY 1`, fargs...); err != nil {
			return false, fmt.Errorf("count the plan's rollups: %w", err)
		}
		var skip int
		if err := conn.QueryRowContext(ctx, cwith+`
			SELECT count(*) FROM decided r JOIN `+tmp+` s ON s.rk = r.k JOIN `+weeks+` ON w.w = `+cq.box.part("r.k", cq.box.timePos)+`
			WHERE NOT r.run AND s.n = w.n`, cargs...).Scan(&skip); err != nil {
			return false, fmt.Errorf("count the plan's rollups: %w", err)
		}
		total := rb.t.total
		if total == 0 {
			continue
		}
		if plan.RollupsByState == nil {
			plan.RollupsByState = map[string]int{}
		}
		for s, n := range map[string]int{"missing": total - c.found, "failed": c.failedMissing + c.failedPresent, "stale": c.stale, "current": c.current} {
			if n > 0 {
				plan.RollupsByState[s] += n
			}
		}
		plan.RollupsTotal += total
		plan.RollupsToRun += total - skip
		for _, b := range rb.blocks {
			plan.ByProduct[ProductName(t.pl, b)] = [2]int{total - skip, skip}
		}
	}
	return true, nil
}

// weekTables are rb's day → rollup time key map and its rollups' day
// counts in the range, as VALUES tables (d, w) and (w, n).
func (rb *rollupBox) weekTables() (days, weeks string) {
	var dv, wv []string
	for _, d := range sortedKeys(rb.weekOf) {
		dv = append(dv, "("+sqlQuote(d)+", "+sqlQuote(rb.weekOf[d])+")")
	}
	for _, w := range sortedKeys(rb.fines) {
		wv = append(wv, fmt.Sprintf("(%s, %d)", sqlQuote(w), rb.fines[w]))
	}
	return "(VALUES " + strings.Join(dv, ", ") + ") m(d, w)", "(VALUES " + strings.Join(wv, ", ") + ") w(w, n)"
}

// rollupKeyOf is the key of the rollup cell holding cell col: its time
// part replaced by the rollup's (week).
func rollupKeyOf(col, week string, b *boxSQL) string {
	if b.nparts == 1 {
		return week
	}
	l := "string_split(" + col + ", '" + partitions.KeySep + "')"
	return fmt.Sprintf("array_to_string(list_concat(%s[1:%d], [%s], %s[%d:]), '%s')", l, b.timePos, week, l, b.timePos+2, partitions.KeySep)
}

// orderAsBox puts the tracker's rollups in the order a tracker fed the
// whole box makes them, whatever cell the page starts at: rollups that
// start together are made by one day's cells, in the box's order of value
// combinations (the first dimension outermost), each cell's by interval.
func (rt *rollupTracker) orderAsBox(sel [][]string) {
	pos := make([]map[string]int, len(sel))
	for i, vs := range sel {
		pos[i] = make(map[string]int, len(vs))
		for j, v := range vs {
			pos[i][v] = j
		}
	}
	rank := func(r *rollup) int {
		n := 0
		for i, v := range r.part.Values {
			if i < len(sel) {
				n = n*len(sel[i]) + pos[i][v]
			}
		}
		return n*len(rt.intervals) + slices.Index(rt.intervals, r.interval)
	}
	slices.SortStableFunc(rt.order, func(a, b *rollup) int { return cmp.Compare(rank(a), rank(b)) })
}

// pageRollups are the rollups of the plan's page of cells, classified as
// planEach classifies them: a rollup one of whose days in the range runs
// runs too. pd holds the versions of the page's cells, of those rollups
// and of their days (pageRollupKeys).
func pageRollups(ctx context.Context, t *target, pd *planData, rt *rollupTracker, reasons *staleReasons) []PlannedPartition {
	var out []PlannedPartition
	for _, r := range rt.all() {
		for _, f := range rt.finesOf(r) {
			if pd.classifyWith(t.pl, f, string(t.pspec.Interval), pd.fine, t.spec.Reprocess, false).Action == "run" {
				r.anyRun = true
				break
			}
		}
		pp := pd.classify(t.pl, r.part, r.interval, r.blocks, t.spec.Reprocess)
		reasons.refine(ctx, &pp)
		out = append(out, rewrittenRollup(pp, r.anyRun, t.pspec.Interval))
	}
	return out
}

// rewrittenRollup is rollup pp once its days run: when some of them do
// (anyRun), it runs too, and is not current once they are rewritten.
func rewrittenRollup(pp PlannedPartition, anyRun bool, fine partitions.Interval) PlannedPartition {
	if !anyRun || pp.Action == "run" {
		return pp
	}
	pp.Action, pp.Reason = "run", "some of its "+string(fine)+" partitions will be rewritten"
	pp.State = staleOnceRewritten(pp.State)
	for prod, st := range pp.Products {
		pp.Products[prod] = staleOnceRewritten(st)
	}
	return pp
}

// finesOf are the cells of rollup r inside the backfill's range.
func (rt *rollupTracker) finesOf(r *rollup) []partitions.Partition {
	cs, ok := rt.specs[r.interval]
	if !ok {
		return nil
	}
	var out []partitions.Partition
	for _, f := range cs.Covering(r.part, rt.t.pspec) {
		if !f.Start.Before(rt.first.Start) && !f.Start.After(rt.last.Start) {
			out = append(out, f)
		}
	}
	return out
}
