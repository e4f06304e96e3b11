package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// How a box is counted when its versions read upstreams. A fine block's
// version records what it read ({"p__load": {"2024-01-02|eu": 3}}); it is
// stale when what it read is no longer current. Parsing that JSON for
// millions of versions and joining each entry with the catalog costs
// seconds, so the common shape is recognised as text instead: the fine
// products of the box are joined cell by cell (one row per cell, one
// column group per product), and a version that read exactly its own cell
// of its upstream blocks is compared with the string those upstreams'
// versions in the same row spell. Only versions of another shape (reads of
// another pipeline's products, a rewired block, odd keys) go through the
// JSON, in a second query run only when there are some. What the SQL
// cannot decide exactly (a fine version that read other cells of its own
// pipeline's products, odd keys in the range it covers) makes the plan
// fall back to planEach, which TestPlanCountedEqualsEach keeps equal.

// countQuery is the SQL of one counted plan: the box's fine products (the
// first nFine of prods, which count toward a cell's presence) and the
// upstream products their blocks read in the same cell (context only).
type countQuery struct {
	t       *target
	box     *boxSQL
	fine    []*project.Block
	hashes  map[string]string
	prods   []string
	nFine   int
	ups     [][]int // per fine product: its upstream products (indexes in prods), by name; nil: none, or one not fine
	inputs  []string
	own     map[string]bool // the pipeline's products (with outputs)
	chosen  string
	chosenA []any
}

func newCountQuery(t *target, fine []*project.Block, hashes map[string]string) (*countQuery, error) {
	box, err := newBoxSQL(t)
	if err != nil {
		return nil, err
	}
	q := &countQuery{t: t, box: box, fine: fine, hashes: hashes, nFine: len(fine), own: map[string]bool{}}
	q.chosen, q.chosenA = warehouse.ChosenVersion(t.spec.Into)
	for _, b := range t.pl.Blocks {
		if b.Entry != project.EntryExport {
			q.own[ProductName(t.pl, b)] = true
		}
	}
	for _, b := range fine {
		q.prods = append(q.prods, ProductName(t.pl, b))
	}
	for _, b := range fine {
		in, _ := json.Marshal(inputProducts(t.pl, b))
		q.inputs = append(q.inputs, string(in))
		var ups []int
		ok := len(b.Upstream) > 0
		for _, id := range b.Upstream {
			ub := t.pl.Block(id)
			if ub == nil || ub.Entry == project.EntryExport || ub.Partitions.Interval != b.Partitions.Interval {
				ok = false
				break
			}
			name := ProductName(t.pl, ub)
			j := slices.Index(q.prods, name)
			if j < 0 {
				j = len(q.prods)
				q.prods = append(q.prods, name)
			}
			if !slices.Contains(ups, j) {
				ups = append(ups, j)
			}
		}
		if !ok {
			ups = nil
		}
		// encoding/json writes a map's keys sorted
		slices.SortFunc(ups, func(a, b int) int { return strings.Compare(q.prods[a], q.prods[b]) })
		q.ups = append(q.ups, ups)
	}
	return q, nil
}

// upstreamProducts are the products fine versions read in their own cell.
func (q *countQuery) upstreamProducts() []string {
	var out []string
	for _, ups := range q.ups {
		for _, j := range ups {
			if !slices.Contains(out, q.prods[j]) {
				out = append(out, q.prods[j])
			}
		}
	}
	return out
}

// ctes are the WITH clauses up to fl (a row per cell of the box with a
// version: have, verdict, reads) and last (each cell's last run).
func (q *countQuery) ctes(resolve bool) (string, []any) {
	var b strings.Builder
	var args []any
	b.WriteString("WITH ")
	// The bounds are for the rest path only: less to carry through the join.
	bounds, cols := "", []string{"v", "r", "c", "u", "i"}
	if resolve {
		bounds, cols = ", v.partition_start AS s, v.partition_end AS e", append(cols, "s", "e")
	}
	// Each side keeps the box's time range only (one semi join per
	// version); the rest of the box is checked once per cell, after the
	// join.
	for j, prod := range q.prods {
		stale := "false"
		if j < q.nFine {
			// the code that wrote it, or code its environment credited
			// with the same rows (warehouse/version_credit.go)
			h := sqlQuote(q.hashes[q.fine[j].ID])
			credit, cargs := warehouse.CreditOf(q.t.spec.Into)
			stale = "(v.code_hash IS DISTINCT FROM " + h + " AND " + credit + " IS DISTINCT FROM " + h + ")"
			args = append(args, cargs...)
		}
		fmt.Fprintf(&b, `p%d AS (SELECT v.partition AS k, v.version AS v, v.run_id AS r, %s AS c,
			CAST(v.upstream AS VARCHAR) AS u, CAST(v.inputs AS VARCHAR) AS i%s
			FROM _strata.versions v WHERE %s AND v.product = %s AND %s), `, j, stale, bounds, q.chosen, sqlQuote(prod), q.box.inTime("v.partition"))
		args = append(args, q.chosenA...)
	}
	// A cell is a cell of a fine product; its upstreams only add context.
	keys := []string{"p0.k"}
	var sel []string
	from := "p0"
	for j := range q.prods {
		for _, c := range cols {
			sel = append(sel, fmt.Sprintf("p%d.%s AS %s%d", j, c, c, j))
		}
		if j == 0 {
			continue
		}
		join := "FULL OUTER JOIN"
		if j >= q.nFine {
			join = "LEFT JOIN"
		}
		from += fmt.Sprintf(" %s p%d ON p%d.k = coalesce(%s)", join, j, j, strings.Join(keys, ", "))
		if j < q.nFine {
			keys = append(keys, fmt.Sprintf("p%d.k", j))
		}
	}
	fmt.Fprintf(&b, "cell AS (SELECT * FROM (SELECT coalesce(%s) AS k, %s FROM %s) WHERE %s), ",
		strings.Join(keys, ", "), strings.Join(sel, ", "), from, q.box.in("k"))
	// Each version's verdict: 0 current (or missing), 1 undecided here
	// (rest), 2 stale; the cell's is the greatest, each computed once.
	var have, st, reads []string
	for i := 0; i < q.nFine; i++ {
		have = append(have, fmt.Sprintf("(v%d IS NOT NULL)::INTEGER", i))
		st = append(st, q.state(i)+fmt.Sprintf(" AS st%d", i))
		reads = append(reads, fmt.Sprintf("(v%d IS NOT NULL AND u%d NOT IN ('{}', 'null'))", i, i))
	}
	fmt.Fprintf(&b, "st AS (SELECT *, %s, %s AS have, %s AS reads FROM cell), ", strings.Join(st, ", "), strings.Join(have, " + "), strings.Join(reads, " OR "))
	verdict := "st0"
	if q.nFine > 1 {
		var sts []string
		for i := 0; i < q.nFine; i++ {
			sts = append(sts, fmt.Sprintf("st%d", i))
		}
		verdict = "greatest(" + strings.Join(sts, ", ") + ")"
	}
	fmt.Fprintf(&b, "fl AS (SELECT *, %s AS verdict FROM st), ", verdict)
	b.WriteString(`last AS (
		SELECT partition_key AS k, arg_max(state, seq) AS s FROM _strata.run_events
		WHERE pipeline = ? AND block_id = '' AND state IN ('succeeded', 'failed', 'cancelled') AND ` + q.box.in("partition_key") + `
		GROUP BY partition_key)`)
	args = append(args, q.t.pl.ID)
	return b.String(), args
}

// state is fine product i's st expression: classify's verdict for its
// version where the version's own row and the cell's decide it.
func (q *countQuery) state(i int) string {
	s := fmt.Sprintf("CASE WHEN v%d IS NULL THEN 0 WHEN c%d THEN 2 WHEN u%d IN ('{}', 'null') THEN 0 ", i, i, i)
	ups := q.ups[i]
	if ups == nil {
		return s + "ELSE 1 END"
	}
	// What a version that read its own cell of each upstream writes: the
	// versions of this row's upstreams (current), or any (then compared).
	spell := func(num func(j int) string) string {
		parts := make([]string, len(ups))
		for n, j := range ups {
			name, _ := json.Marshal(q.prods[j])
			parts[n] = sqlQuote(string(name)+`:{"`) + " || k || '\":' || " + num(j) + " || '}'"
		}
		return "'{' || " + strings.Join(parts, " || ',' || ") + " || '}'"
	}
	read := func(j int) string {
		name, _ := json.Marshal(q.prods[j])
		return fmt.Sprintf("TRY_CAST(split_part(split_part(u%d, %s || k || '\":', 2), '}', 1) AS INTEGER)", i, sqlQuote(string(name)+`:{"`))
	}
	var changed []string
	for _, j := range ups {
		n := read(j)
		changed = append(changed, fmt.Sprintf("(%s = 0 AND r%d <> r%d) OR (%s <> 0 AND v%d <> %s)", n, j, i, n, j, n))
	}
	s += fmt.Sprintf("WHEN NOT (i%d IS NULL OR i%d = %s) THEN 1 ", i, i, sqlQuote(q.inputs[i]))
	// A backfill's run reads the versions it wrote itself: 0, same run.
	var rerun []string
	for _, j := range ups {
		rerun = append(rerun, fmt.Sprintf("r%d <> r%d", j, i))
	}
	s += fmt.Sprintf("WHEN u%d = %s THEN CASE WHEN %s THEN 2 ELSE 0 END ", i, spell(func(int) string { return "'0'" }), strings.Join(rerun, " OR "))
	s += fmt.Sprintf("WHEN u%d = %s THEN 0 ", i, spell(func(j int) string { return fmt.Sprintf("v%d", j) }))
	s += fmt.Sprintf("WHEN u%d = %s THEN CASE WHEN %s THEN 2 ELSE 0 END ", i, spell(read), strings.Join(changed, " OR "))
	return s + "ELSE 1 END"
}

// restCTEs resolve the rest versions through their JSON: bad are the
// cells one of whose rest versions is stale: rewired, an entry it read no
// longer current, or (unread, as rollup_unread.go decides) a current
// partition of a product of the pipeline it read lies in its range, of its
// slice, without being one it read: a week that missed a day published
// after it. The arguments are the chosen versions' (cv, then ownv).
func (q *countQuery) restCTEs() (string, []any) {
	var rest []string
	for i := 0; i < q.nFine; i++ {
		now := make([]string, 0)
		for _, p := range inputProducts(q.t.pl, q.fine[i]) {
			now = append(now, sqlQuote(p))
		}
		list := "[" + strings.Join(now, ", ") + "]::VARCHAR[]"
		rest = append(rest, fmt.Sprintf(`SELECT k, %d AS x, u%d AS u, CASE WHEN i%d IS NULL THEN NULL ELSE coalesce(TRY_CAST(i%d::JSON AS VARCHAR[]), []::VARCHAR[]) END AS ins,
			r%d AS r, s%d AS s, e%d AS e, %s AS now FROM fl WHERE st%d = 1`, i, i, i, i, i, i, i, list, i))
	}
	var own []string
	for p := range q.own {
		own = append(own, p)
	}
	slices.Sort(own)
	ownList := "[" + strings.Join(func() []string {
		out := make([]string, len(own))
		for i, p := range own {
			out[i] = sqlQuote(p)
		}
		return out
	}(), ", ") + "]::VARCHAR[]"
	return `, rest AS (` + strings.Join(rest, " UNION ALL ") + `),
	e1 AS (SELECT k, x, ins, r, s, e, unnest(map_entries(CAST(u::JSON AS MAP(VARCHAR, MAP(VARCHAR, INTEGER))))) AS pe FROM rest),
	e2 AS (SELECT k, x, ins, r, s, e, pe.key AS prod, unnest(map_entries(pe.value)) AS q FROM e1),
	ent AS (SELECT k, x, ins, r, s, e, prod, q.key AS part, q.value AS n FROM e2),
	cv AS (SELECT v.product, v.partition, v.version, v.run_id FROM _strata.versions v WHERE ` + q.chosen + ` AND v.product IN (SELECT DISTINCT prod FROM ent)),
	upbad AS (SELECT DISTINCT ent.k, ent.x FROM ent JOIN cv ON cv.product = ent.prod AND cv.partition = ent.part
		WHERE (ent.n = 0 AND cv.run_id <> ent.r) OR (ent.n <> 0 AND cv.version <> ent.n)),
	rewired AS (SELECT k, x FROM rest WHERE u <> 'null' AND (
		(ins IS NOT NULL AND ins <> now AND list_sort(ins) = list_sort(now))
		OR (CASE WHEN ins IS NOT NULL THEN list_sort(ins) ELSE list_sort(json_keys(u::JSON)) END) <> list_sort(list_distinct(now)))),
	judged AS (SELECT k, x FROM upbad UNION SELECT k, x FROM rewired),
	ownent AS (SELECT ent.* FROM ent ANTI JOIN judged ON judged.k = ent.k AND judged.x = ent.x
		WHERE list_contains(` + ownList + `, ent.prod) AND (ent.ins IS NULL OR list_contains(ent.ins, ent.prod)) AND ent.s < ent.e),
	ownslice AS (SELECT k, x, prod, s, e, ` + q.slice("min(part)") + ` AS sl FROM ownent GROUP BY k, x, prod, s, e),
	ownv AS (SELECT v.product AS prod, v.partition AS part, v.partition_start AS ps, ` + q.slice("v.partition") + ` AS sl
		FROM _strata.versions v WHERE ` + q.chosen + ` AND v.product IN (SELECT DISTINCT prod FROM ownslice)),
	ownvx AS (SELECT ownv.*, xs.x FROM ownv, (SELECT DISTINCT x FROM ownslice) xs),
	cover AS (SELECT o.k, o.x, o.prod, o.e, ownvx.part, ownvx.ps FROM ownvx ASOF JOIN ownslice o
		ON o.prod = ownvx.prod AND o.x = ownvx.x AND o.sl = ownvx.sl AND ownvx.ps >= o.s),
	unread AS (SELECT DISTINCT c.k FROM cover c ANTI JOIN ownent r ON r.k = c.k AND r.x = c.x AND r.prod = c.prod AND r.part = c.part
		WHERE c.ps < c.e),
	oddown AS (SELECT 1 FROM ownv WHERE ` + q.parts("part") + ` <> ` + fmt.Sprint(q.box.nparts) + `
		UNION ALL SELECT 1 FROM ownent WHERE ` + q.parts("part") + ` <> ` + fmt.Sprint(q.box.nparts) + `),
	bad AS (SELECT k FROM upbad UNION SELECT k FROM rewired UNION SELECT k FROM unread)`, append(slices.Clone(q.chosenA), q.chosenA...)
}

// slice is a key without its time part (rollup_unread.go's sameSlice
// compares keys of one part count by it): a week × region version reads
// its region's days, found by an equality (and an ASOF join on their
// start) rather than by comparing every day in its range with it. Keys of
// another part count (oddown) send the plan cell by cell.
func (q *countQuery) slice(col string) string {
	sep := partitions.KeySep
	if q.box.nparts == 1 {
		return "''"
	}
	if q.box.timePos == 0 {
		return fmt.Sprintf("substr(%s, strpos(%s, '%s') + 1)", col, col, sep)
	}
	l := "string_split(" + col + ", '" + sep + "')"
	return fmt.Sprintf("array_to_string(list_concat(%s[1:%d], %s[%d:]), '%s')", l, q.box.timePos, l, q.box.timePos+2, sep)
}

// parts is how many parts key col has.
func (q *countQuery) parts(col string) string {
	return fmt.Sprintf("(length(%s) - length(replace(%s, '%s', '')) + 1)", col, col, partitions.KeySep)
}

// count runs the counting query; resolve adds the rest path. unknown are
// the cells only the rest path decides (resolve false), reads those whose
// versions read something, unsure whether keys of another part count make
// the rest path's unread check inexact.
func (q *countQuery) count(ctx context.Context, e *Engine, resolve bool) (c cellCounts, unknown, reads int, unsure bool, err error) {
	with, args := q.ctes(resolve)
	verdict, join, extra := "fl.verdict", "", ", false"
	if resolve {
		rest, rargs := q.restCTEs()
		with += rest
		args = append(args, rargs...)
		verdict = "CASE WHEN fl.verdict = 1 THEN CASE WHEN bad.k IS NULL THEN 0 ELSE 2 END ELSE fl.verdict END"
		join = " LEFT JOIN bad ON bad.k = fl.k"
		extra = ", EXISTS (SELECT 1 FROM oddown)"
	}
	// One small group per kind of cell: the FILTERs of one aggregate each
	// evaluate the verdict again.
	sqlText := with + `, cells AS (
		SELECT coalesce(fl.have, 0) >= ? AS complete, coalesce(` + verdict + `, 0) AS verdict,
			coalesce(fl.reads, false) AS reads, coalesce(last.s IN ('failed', 'cancelled'), false) AS failed
		FROM fl FULL OUTER JOIN last ON fl.k = last.k` + join + `
	)
	SELECT failed, complete, verdict, reads, count(*)` + extra + ` FROM cells GROUP BY 1, 2, 3, 4`
	args = append(args, q.nFine)
	rows, err := e.wh.DB().QueryContext(ctx, sqlText, args...)
	if err != nil {
		return cellCounts{}, 0, 0, false, fmt.Errorf("count the plan's cells: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var failed, full, read, odd bool
		var verdict, n int
		if err := rows.Scan(&failed, &full, &verdict, &read, &n, &odd); err != nil {
			return cellCounts{}, 0, 0, false, fmt.Errorf("count the plan's cells: %w", err)
		}
		switch {
		case failed && !full:
			c.failedMissing += n
		case failed:
			c.failedPresent += n
		case !full:
			continue // no version of some product, no failed run: counted missing
		case verdict == 2:
			c.stale += n
		case verdict == 1:
			unknown += n
		default:
			c.current += n
		}
		c.found += n
		if read {
			reads += n
		}
		unsure = unsure || odd
	}
	if err := rows.Err(); err != nil {
		return cellCounts{}, 0, 0, false, fmt.Errorf("count the plan's cells: %w", err)
	}
	return c, unknown, reads, unsure, nil
}

// oddKeys counts the current partitions of prods that start inside the
// box's time range without being one of its cells' layout (an old
// one-dimensional key, another part count, another time key): classify
// counts such a partition as an upstream the cells of its range did not
// read, which the text comparison does not see.
func (q *countQuery) oddKeys(ctx context.Context, e *Engine, prods []string) (int, error) {
	if len(prods) == 0 {
		return 0, nil
	}
	names := make([]string, len(prods))
	for i, p := range prods {
		names[i] = sqlQuote(p)
	}
	args := append(slices.Clone(q.chosenA), q.box.start, q.box.end)
	var n int
	err := e.wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM _strata.versions v WHERE `+q.chosen+` AND v.product IN (`+strings.Join(names, ", ")+`)
		AND v.partition_start >= ? AND v.partition_start < ? AND NOT `+q.box.layout("v.partition"), args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("check the plan's upstream keys: %w", err)
	}
	return n, nil
}

// countCells counts the cells of t's box by state in DuckDB; ok is false
// when the SQL cannot decide every cell as classify would.
func (e *Engine) countCells(ctx context.Context, t *target, fine []*project.Block, hashes map[string]string) (cellCounts, bool, error) {
	q, err := newCountQuery(t, fine, hashes)
	if err != nil {
		return cellCounts{}, false, err
	}
	c, _, ok, err := q.decide(ctx, e)
	return c, ok, err
}

// decide counts q's cells; resolve says whether some need the rest path
// (their versions' JSON), ok false that the SQL cannot decide every cell
// as classify would.
func (q *countQuery) decide(ctx context.Context, e *Engine) (c cellCounts, resolve, ok bool, err error) {
	t := q.t
	c, unknown, reads, _, err := q.count(ctx, e, false)
	if err != nil {
		return cellCounts{}, false, false, err
	}
	if resolve = unknown > 0; resolve {
		var unsure bool
		if c, _, _, unsure, err = q.count(ctx, e, true); err != nil {
			// The rest path parses what versions recorded (their upstream
			// JSON): one it cannot read is planned cell by cell, which
			// reads it as classify always did, rather than fail the plan.
			slog.WarnContext(ctx, "plan: counting the cells whose versions read other rows failed; planning cell by cell", "pipeline", t.pl.ID, "err", err)
			return cellCounts{}, false, false, nil
		}
		if unsure {
			return cellCounts{}, false, false, nil
		}
	}
	// Versions compared as text (they read their own cell of their
	// upstreams) skip the unread check the rest path makes: an odd key in
	// their range, which classify counts as a partition they did not
	// read, sends the plan cell by cell.
	prods := q.upstreamProducts()
	if reads == 0 || len(prods) == 0 {
		return c, resolve, true, nil
	}
	if !q.box.hasTime {
		// no time range to check the upstreams' keys in
		return cellCounts{}, false, false, nil
	}
	odd, err := q.oddKeys(ctx, e, prods)
	if err != nil || odd > 0 {
		return cellCounts{}, false, false, err
	}
	return c, resolve, true, nil
}
