package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
)

// A re-backfill of millions of cells that all have versions (reprocess
// all, or a code change made them stale) cannot afford the launch plan of
// backfill_launchplan.go: every current version read into Go maps, every
// cell classified and written into one JSON document that every pass
// reads back whole (730,000 cells: 25 s and 1.2 GiB before the first
// run). Where the counted planner decides every cell (plan_count_sql.go),
// the launch has DuckDB write the plan instead, a row per cell (and rollup) that had
// something at launch, into _strata.backfill_plans in the transaction that
// records the backfill, and every pass reads it a page of cells at a time
// as it visits them. The backfill row's plan column then says "rows".
// What the SQL cannot decide keeps the JSON plan (compareLaunchPlans, in
// the counted planners' tests, keeps the two equal entry for entry).

// planRowsDDL holds the plans written by DuckDB: key is a run id's
// suffix (a cell's key, "interval:key" of a rollup), based the JSON of
// plannedRun.BasedOn (NULL: none).
const planRowsDDL = `CREATE TABLE IF NOT EXISTS _strata.backfill_plans (
	backfill_id VARCHAR, key VARCHAR, run BOOLEAN, state VARCHAR, based VARCHAR)`

// planRowsMarker is the plan column of a backfill whose plan is in rows.
const planRowsMarker = "rows"

// defaultPlanPage is how many cells a pass reads the plan of at once.
const defaultPlanPage = 8192

// planStmt is one statement with its arguments.
type planStmt struct {
	sql  string
	args []any
}

// planRowsQuery are the INSERTs that write t's plan as rows for backfill
// id: its cells', then each rollup interval's; ok false when the SQL
// cannot plan every cell and rollup as classify would (the launch then
// plans cell by cell). dir is the pipeline version's folder (its code
// hashes).
func (e *Engine) planRowsQuery(ctx context.Context, t *target, dir, id string) ([]planStmt, bool, error) {
	fine, coarse := t.split()
	if len(fine) == 0 {
		return nil, false, nil
	}
	boxes, ok := t.rollupBoxes(coarse)
	if !ok {
		return nil, false, nil
	}
	hashes, err := CodeHashes(dir, t.pl)
	if err != nil {
		return nil, false, err
	}
	st, ok, err := e.planRowsOf(ctx, t, fine, hashes, id, "")
	if err != nil || !ok {
		return nil, false, err
	}
	out := []planStmt{st}
	for _, rb := range boxes {
		st, ok, err := e.planRowsOf(ctx, rb.t, rb.blocks, hashes, id, rb.interval+":")
		if err != nil || !ok {
			return nil, false, err
		}
		out = append(out, st)
	}
	return out, true, nil
}

// planRowsOf is the INSERT of the plan of t's cells for blocks (a
// rollup's under the run id suffix prefix+key).
func (e *Engine) planRowsOf(ctx context.Context, t *target, blocks []*project.Block, hashes map[string]string, id, prefix string) (planStmt, bool, error) {
	q, err := newCountQuery(t, blocks, hashes)
	if err != nil {
		return planStmt{}, false, err
	}
	with, args, _, ok, err := q.decisions(ctx, e)
	if err != nil || !ok {
		return planStmt{}, false, err
	}
	sqlText := `INSERT INTO _strata.backfill_plans (backfill_id, key, run, state, based) ` + with + `
	SELECT ?, ` + sqlQuote(prefix) + ` || k, run, state, based FROM decided
	WHERE NOT (run AND state = 'missing' AND based IS NULL) -- unplanned: left out, as in the JSON plan
	ORDER BY k`
	return planStmt{sqlText, append(args, id)}, true, nil
}

// decisions is the WITH clauses of q's cells up to decided: a row per
// cell with something (a version or a last run) with classify's action
// (run), state and the compare-and-set base (based, JSON). ok false when
// the SQL cannot decide every cell as classify would; c are the cells'
// counts.
func (q *countQuery) decisions(ctx context.Context, e *Engine) (with string, args []any, c cellCounts, ok bool, err error) {
	c, resolve, ok, err := q.decide(ctx, e)
	if err != nil || !ok {
		return "", nil, cellCounts{}, false, err
	}
	t := q.t
	with, args = q.ctes(resolve)
	verdict, join := "fl.verdict", ""
	if resolve {
		rest, rargs := q.restCTEs()
		with += rest
		args = append(args, rargs...)
		verdict = "CASE WHEN fl.verdict = 1 THEN CASE WHEN bad.k IS NULL THEN 0 ELSE 2 END ELSE fl.verdict END"
		join = " LEFT JOIN bad ON bad.k = fl.k"
	}
	// The version of each product (classify's maxV), and the
	// compare-and-set base: the same versions, or prod's current ones in
	// a backfill into an environment (planData.based).
	var vs, based []string
	for i := 0; i < q.nFine; i++ {
		vs = append(vs, fmt.Sprintf("coalesce(fl.v%d, 0)", i))
		col := fmt.Sprintf("fl.v%d", i)
		if t.spec.Into != "" {
			col = fmt.Sprintf("b%d.v", i)
			join += fmt.Sprintf(` LEFT JOIN (SELECT v.partition AS k, v.version AS v FROM _strata.versions v
				WHERE v.is_current AND v.product = %s AND %s) b%d ON b%d.k = coalesce(fl.k, last.k)`,
				sqlQuote(q.prods[i]), q.box.inTime("v.partition"), i, i)
		}
		name, _ := json.Marshal(q.prods[i])
		based = append(based, fmt.Sprintf("CASE WHEN %s IS NOT NULL THEN %s || %s END", col, sqlQuote(string(name)+":"), col))
	}
	maxV := vs[0]
	if len(vs) > 1 {
		maxV = "greatest(" + strings.Join(vs, ", ") + ")"
	}
	with += `, planned AS (
		SELECT coalesce(fl.k, last.k) AS k, coalesce(fl.have, 0) >= ? AS complete, coalesce(` + verdict + `, 0) AS verdict,
			coalesce(last.s IN ('failed', 'cancelled'), false) AS failed, ` + maxV + ` AS maxv,
			nullif('{' || concat_ws(',', ` + strings.Join(based, ", ") + `) || '}', '{}') AS based
		FROM fl FULL OUTER JOIN last ON fl.k = last.k` + join + `
	), decided AS (
		SELECT k, ` + runExpr(t.spec.Reprocess) + ` AS run,
			CASE WHEN failed THEN 'failed' WHEN NOT complete THEN 'missing' WHEN verdict = 2 THEN 'stale' ELSE 'current v' || maxv END AS state, based
		FROM planned
	)`
	return with, append(args, q.nFine), c, true, nil
}

// runExpr is classify's action under policy over a cell's complete,
// failed and verdict: a "missing" cell (some product without a version)
// runs under every policy.
func runExpr(policy string) string {
	switch policy {
	case ReprocessAll:
		return "true"
	case ReprocessStale:
		return "(NOT complete OR failed OR verdict = 2)"
	case ReprocessFailed:
		return "(NOT complete OR failed)"
	}
	return "NOT complete"
}

// planSource is a backfill's launch plan as a pass reads it: the JSON
// plan (launchPlan, whole) or the rows DuckDB wrote (pagedPlan).
type planSource interface {
	// of is the plan of run runID of backfill id; ok false when the plan
	// does not know it.
	of(id, runID string) (plannedRun, bool)
	// load makes the plan of cells and rollups (run id suffixes) known to
	// of, before the pass decides them.
	load(ctx context.Context, cells, rollups []string) error
}

func (lp launchPlan) load(context.Context, []string, []string) error { return nil }

// pagedPlan reads a plan kept as rows a page at a time: of answers for the
// cells of the last page loaded and for every rollup loaded so far (a
// rollup is decided once its last cell is done, pages later).
type pagedPlan struct {
	e       *Engine
	id      string
	mu      sync.Mutex
	cells   map[string]plannedRun
	rollups map[string]plannedRun
}

func (pp *pagedPlan) of(id, runID string) (plannedRun, bool) {
	key := strings.TrimPrefix(runID, id+":")
	pp.mu.Lock()
	defer pp.mu.Unlock()
	m := pp.cells
	if isRollupKey(key) {
		m = pp.rollups
	}
	if pr, ok := m[key]; ok {
		return pr, true
	}
	return unplanned, true // left out: nothing at launch
}

func (pp *pagedPlan) load(ctx context.Context, cells, rollups []string) error {
	got, err := pp.read(ctx, cells)
	if err != nil {
		return err
	}
	rs, err := pp.read(ctx, rollups)
	if err != nil {
		return err
	}
	pp.mu.Lock()
	defer pp.mu.Unlock()
	pp.cells = got
	for k, pr := range rs {
		pp.rollups[k] = pr
	}
	return nil
}

// read is the recorded plan of keys. The plan's rows are written in key
// order: the keys' range lets DuckDB skip the row groups of other pages.
func (pp *pagedPlan) read(ctx context.Context, keys []string) (map[string]plannedRun, error) {
	out := map[string]plannedRun{}
	if len(keys) == 0 {
		return out, nil
	}
	rows, err := pp.e.wh.DB().QueryContext(ctx, `SELECT key, run, state, based FROM _strata.backfill_plans
		WHERE backfill_id = ? AND key >= ? AND key <= ? AND key IN `+sqlArray(keys), pp.id, slices.Min(keys), slices.Max(keys))
	if err != nil {
		return nil, fmt.Errorf("read the plan of backfill %s: %w", pp.id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var pr plannedRun
		var based sql.NullString
		if err := rows.Scan(&k, &pr.Run, &pr.State, &based); err != nil {
			return nil, fmt.Errorf("read the plan of backfill %s: %w", pp.id, err)
		}
		if based.Valid {
			if err := json.Unmarshal([]byte(based.String), &pr.BasedOn); err != nil {
				return nil, fmt.Errorf("backfill %s: the recorded plan of %s is unreadable: %w", pp.id, k, err)
			}
		}
		out[k] = pr
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the plan of backfill %s: %w", pp.id, err)
	}
	pp.e.loaded("plan", len(out))
	return out, nil
}

// planOf is a plan's entry as a run takes it: nil when the plan does not
// know the partition.
func planOf(pr plannedRun, ok bool) *plannedRun {
	if !ok {
		return nil
	}
	return &pr
}

// visitPages visits the partitions of it a page at a time, the page's
// plan (and that of the rollups its cells belong to, each read once, when
// rollupsOf names them) loaded before any of them is decided. A visit
// that returns false ends it, as does ctx (without an error: the pass
// ends as a cancel or shutdown ends it).
func visitPages(ctx context.Context, it func(func(partitions.Partition) bool), size int, lp planSource,
	rollupsOf func(partitions.Partition) []*rollup, visit func(partitions.Partition) bool) error {
	page := make([]partitions.Partition, 0, size)
	keys := make([]string, 0, size)
	flush := func() (bool, error) {
		keys = keys[:0]
		var rkeys []string
		for _, p := range page {
			keys = append(keys, p.Key)
			if rollupsOf == nil {
				continue
			}
			for _, r := range rollupsOf(p) {
				if !r.planRead {
					r.planRead = true
					rkeys = append(rkeys, r.interval+":"+r.part.Key)
				}
			}
		}
		if err := lp.load(ctx, keys, rkeys); err != nil {
			if ctx.Err() != nil {
				return false, nil
			}
			return false, err
		}
		for _, p := range page {
			if !visit(p) {
				return false, nil
			}
		}
		page = page[:0]
		return true, nil
	}
	for p := range it {
		if page = append(page, p); len(page) < size {
			continue
		}
		if more, err := flush(); !more || err != nil {
			return err
		}
	}
	if len(page) == 0 {
		return nil
	}
	_, err := flush()
	return err
}
