package warehouse

import (
	"context"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// RowChange is one row that differs between two sides: changed (same key,
// other values), added or removed. Old and New follow the diff's Columns;
// the side a row is absent from is nil.
type RowChange struct {
	Kind      string `json:"kind"` // changed, added or removed
	Partition string `json:"partition"`
	Old       []any  `json:"old"`
	New       []any  `json:"new"`
}

// Row change kinds.
const (
	RowChanged = "changed"
	RowAdded   = "added"
	RowRemoved = "removed"
)

// RowCounts counts the rows of a diff by kind.
type RowCounts struct {
	Changed int64 `json:"changed"`
	Added   int64 `json:"added"`
	Removed int64 `json:"removed"`
}

// Total is every row that differs.
func (c RowCounts) Total() int64 { return c.Changed + c.Added + c.Removed }

func (c *RowCounts) add(kind string, n int64) {
	switch kind {
	case RowChanged:
		c.Changed += n
	case RowAdded:
		c.Added += n
	case RowRemoved:
		c.Removed += n
	}
}

// rowDiff is the SQL of one row comparison between relations a and b
// (sideSQL over the same cols), keyed by _partition and keys (nil: whole
// rows, compared as multisets with EXCEPT ALL).
type rowDiff struct {
	before, after string
	cols          []unionColumn
	keys          []string // as spelled in cols
}

// resolveKeys maps the declared key columns onto cols (case-insensitive).
// A key column missing from either side cannot key the diff: the note says
// so and the diff compares whole rows.
func resolveKeys(declared []string, before, after []unionColumn) (keys []string, note string) {
	if len(declared) == 0 {
		return nil, ""
	}
	find := func(cols []unionColumn, name string) (string, bool) {
		for _, c := range cols {
			if strings.EqualFold(c.name, name) {
				return c.name, true
			}
		}
		return "", false
	}
	for _, k := range declared {
		name, inAfter := find(after, k)
		_, inBefore := find(before, k)
		if (!inAfter && len(after) > 0) || (!inBefore && len(before) > 0) {
			return nil, fmt.Sprintf("key column %q is not in both versions: rows are compared whole", k)
		}
		if name == "" {
			name, _ = find(before, k)
		}
		keys = append(keys, name)
	}
	return keys, ""
}

func (d rowDiff) with() string {
	return "WITH a AS (" + d.before + "), b AS (" + d.after + ")"
}

// joinedSQL pairs the rows of a and b by key and names each pair's kind.
func (d rowDiff) joinedSQL() string {
	var on []string
	on = append(on, "a."+colPartition+" = b."+colPartition)
	for _, k := range d.keys {
		on = append(on, fmt.Sprintf("a.%s IS NOT DISTINCT FROM b.%s", quoteIdent(k), quoteIdent(k)))
	}
	var values []string
	isKey := map[string]bool{}
	for _, k := range d.keys {
		isKey[k] = true
	}
	for _, c := range d.cols {
		if !isKey[c.name] {
			values = append(values, c.name)
		}
	}
	changed := "false"
	if len(values) > 0 {
		changed = fmt.Sprintf("row(%s) IS DISTINCT FROM row(%s)", identList("a.", values), identList("b.", values))
	}
	var sel []string
	sel = append(sel, fmt.Sprintf(`CASE WHEN a.__strata_in IS NULL THEN '%s' WHEN b.__strata_in IS NULL THEN '%s' WHEN %s THEN '%s' END AS __strata_kind`,
		RowAdded, RowRemoved, changed, RowChanged))
	sel = append(sel, "coalesce(a."+colPartition+", b."+colPartition+") AS __strata_part")
	for i, k := range d.keys {
		sel = append(sel, fmt.Sprintf("coalesce(a.%s, b.%s) AS __strata_k%d", quoteIdent(k), quoteIdent(k), i))
	}
	for i, c := range d.cols {
		sel = append(sel, fmt.Sprintf("a.%s AS __strata_o%d", quoteIdent(c.name), i))
	}
	for i, c := range d.cols {
		sel = append(sel, fmt.Sprintf("b.%s AS __strata_n%d", quoteIdent(c.name), i))
	}
	return fmt.Sprintf(`%s, j AS (SELECT %s FROM (SELECT *, true AS __strata_in FROM a) a FULL OUTER JOIN (SELECT *, true AS __strata_in FROM b) b ON %s)`,
		d.with(), strings.Join(sel, ", "), strings.Join(on, " AND "))
}

// countsSQL yields (partition, kind, rows) for every partition with a
// difference.
func (d rowDiff) countsSQL() string {
	if len(d.keys) > 0 {
		return d.joinedSQL() + ` SELECT __strata_part, __strata_kind, count(*) FROM j WHERE __strata_kind IS NOT NULL GROUP BY ALL`
	}
	return d.with() + fmt.Sprintf(`, r AS (SELECT * FROM a EXCEPT ALL SELECT * FROM b), n AS (SELECT * FROM b EXCEPT ALL SELECT * FROM a)
		SELECT %[1]s, '%[2]s', count(*) FROM r GROUP BY ALL UNION ALL SELECT %[1]s, '%[3]s', count(*) FROM n GROUP BY ALL`,
		colPartition, RowRemoved, RowAdded)
}

// hashedCountsSQL yields (partition, kind, rows) for every partition,
// comparing 64-bit hashes of the key and of the other values instead of the
// values themselves: a set diff over millions of rows joins two integers a
// row rather than every column (and counts whole-row multisets by grouping
// hashes rather than by two EXCEPT ALLs). Keyed, it also counts the pairs
// that did not change (kind "same"), so that the rows each side contributes
// to the join can be checked against its row count: a key repeated on both
// sides pairs its rows more than once. (Stacking both sides into one hash
// aggregate instead of the join measured 1.5-2x slower.) A changed row whose
// hash did not change would go uncounted: about one chance in 2^64 per row.
func (d rowDiff) hashedCountsSQL() string {
	isKey := map[string]bool{}
	for _, k := range d.keys {
		isKey[k] = true
	}
	var values []string
	for _, c := range d.cols {
		if !isKey[c.name] {
			values = append(values, c.name)
		}
	}
	vh := "0"
	if len(values) > 0 {
		vh = "hash(" + identList("", values) + ")"
	}
	if len(d.keys) > 0 {
		kh := "hash(" + identList("", d.keys) + ")"
		return d.with() + fmt.Sprintf(`, ha AS (SELECT %[1]s AS p, %[2]s AS kh, %[3]s AS vh FROM a), hb AS (SELECT %[1]s AS p, %[2]s AS kh, %[3]s AS vh FROM b)
			SELECT coalesce(ha.p, hb.p) AS p,
				CASE WHEN ha.p IS NULL THEN '%[4]s' WHEN hb.p IS NULL THEN '%[5]s' WHEN ha.vh <> hb.vh THEN '%[6]s' ELSE '%[7]s' END AS kind, count(*) AS n
				FROM ha FULL OUTER JOIN hb ON ha.p = hb.p AND ha.kh = hb.kh GROUP BY ALL`,
			colPartition, kh, vh, RowAdded, RowRemoved, RowChanged, rowSame)
	}
	rh := "hash(" + identList("", colNames(d.cols)) + ")"
	if len(d.cols) == 0 {
		rh = "0"
	}
	return d.with() + fmt.Sprintf(`, ha AS (SELECT %[1]s AS p, %[2]s AS h, count(*) AS n FROM a GROUP BY ALL), hb AS (SELECT %[1]s AS p, %[2]s AS h, count(*) AS n FROM b GROUP BY ALL),
		j AS (SELECT coalesce(ha.p, hb.p) AS p, coalesce(ha.n, 0) - coalesce(hb.n, 0) AS d FROM ha FULL OUTER JOIN hb ON ha.p = hb.p AND ha.h = hb.h)
		SELECT p, '%[3]s', sum(d) FROM j WHERE d > 0 GROUP BY p UNION ALL SELECT p, '%[4]s', sum(-d) FROM j WHERE d < 0 GROUP BY p`,
		colPartition, rh, RowRemoved, RowAdded)
}

// rowSame is the kind of a keyed pair whose values did not change (counted
// by hashedCountsSQL only).
const rowSame = "same"

// countHashed runs hashedCountsSQL into per-partition counts. rows are the
// row counts of the two sides; with keys, dups says how many more rows each
// side put into the join than it has (0, 0: no key pairs more than once).
func countHashed(ctx context.Context, q querier, d rowDiff, rows [2]int64) (map[string]*RowCounts, [2]int64, error) {
	var dups [2]int64
	res, err := q.QueryContext(ctx, d.hashedCountsSQL())
	if err != nil {
		return nil, dups, fmt.Errorf("count changed rows: %w", err)
	}
	defer res.Close()
	out := map[string]*RowCounts{}
	var joined [2]int64 // rows of each side in the join
	for res.Next() {
		var part, kind string
		var n int64
		if err := res.Scan(&part, &kind, &n); err != nil {
			return nil, dups, err
		}
		switch kind {
		case rowSame, RowChanged:
			joined[0] += n
			joined[1] += n
		case RowRemoved:
			joined[0] += n
		case RowAdded:
			joined[1] += n
		}
		if kind == rowSame {
			continue
		}
		c := out[part]
		if c == nil {
			c = &RowCounts{}
			out[part] = c
		}
		c.add(kind, n)
	}
	if len(d.keys) > 0 {
		dups = [2]int64{max(joined[0]-rows[0], 0), max(joined[1]-rows[1], 0)}
	}
	return out, dups, res.Err()
}

// rowsSQL yields the first limit differing rows: kind, partition, then the
// old values and the new values of every column (keyed), in key order; or
// (whole rows) the first limit removed and the first limit added rows. Each
// row ends with the counts of changed, added and removed rows of the whole
// diff, so one query answers both (the counts are window aggregates,
// computed before the LIMIT).
func (d rowDiff) rowsSQL(limit int) string {
	n := len(d.cols)
	if len(d.keys) > 0 {
		order := []string{"__strata_part"}
		for i := range d.keys {
			order = append(order, fmt.Sprintf("__strata_k%d", i))
		}
		var vals []string
		for i := 0; i < n; i++ {
			vals = append(vals, fmt.Sprintf("__strata_o%d", i))
		}
		for i := 0; i < n; i++ {
			vals = append(vals, fmt.Sprintf("__strata_n%d", i))
		}
		counts := fmt.Sprintf(`count(*) FILTER (WHERE __strata_kind = '%s') OVER (), count(*) FILTER (WHERE __strata_kind = '%s') OVER (), count(*) FILTER (WHERE __strata_kind = '%s') OVER ()`,
			RowChanged, RowAdded, RowRemoved)
		return d.joinedSQL() + fmt.Sprintf(` SELECT __strata_kind, __strata_part, %s, %s FROM j WHERE __strata_kind IS NOT NULL ORDER BY %s LIMIT %d`,
			strings.Join(vals, ", "), counts, strings.Join(order, ", "), limit)
	}
	all := identList("", colNames(d.cols))
	nulls := strings.TrimSuffix(strings.Repeat("NULL, ", n), ", ")
	if n == 0 {
		return d.with() + ` SELECT NULL, NULL, 0, 0, 0 WHERE false`
	}
	return d.with() + fmt.Sprintf(`, r AS (SELECT * FROM a EXCEPT ALL SELECT * FROM b), n AS (SELECT * FROM b EXCEPT ALL SELECT * FROM a)
		SELECT *, 0, (SELECT count(*) FROM n), (SELECT count(*) FROM r) FROM (
		SELECT * FROM (SELECT '%[1]s', %[3]s, %[4]s, %[5]s FROM r ORDER BY ALL LIMIT %[6]d)
		UNION ALL SELECT * FROM (SELECT '%[2]s', %[3]s, %[5]s, %[4]s FROM n ORDER BY ALL LIMIT %[6]d))`,
		RowRemoved, RowAdded, colPartition, all, nulls, limit)
}

func colNames(cols []unionColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

func identList(alias string, names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = alias + quoteIdent(n)
	}
	return strings.Join(out, ", ")
}

// countRows runs countsSQL into per-partition counts.
func countRows(ctx context.Context, q querier, d rowDiff) (map[string]*RowCounts, error) {
	rows, err := q.QueryContext(ctx, d.countsSQL())
	if err != nil {
		return nil, fmt.Errorf("count changed rows: %w", err)
	}
	defer rows.Close()
	out := map[string]*RowCounts{}
	for rows.Next() {
		var part, kind string
		var n int64
		if err := rows.Scan(&part, &kind, &n); err != nil {
			return nil, err
		}
		c := out[part]
		if c == nil {
			c = &RowCounts{}
			out[part] = c
		}
		c.add(kind, n)
	}
	return out, rows.Err()
}

// changedRows runs rowsSQL: at most limit rows (limit > 0), and the
// counts of the whole diff.
func changedRows(ctx context.Context, q querier, d rowDiff, limit int) ([]RowChange, RowCounts, error) {
	var counts RowCounts
	rows, err := q.QueryContext(ctx, d.rowsSQL(limit))
	if err != nil {
		return nil, counts, fmt.Errorf("changed rows: %w", err)
	}
	defer rows.Close()
	n := len(d.cols)
	vals := make([]any, 2+2*n)
	ptrs := make([]any, len(vals), len(vals)+3)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	ptrs = append(ptrs, &counts.Changed, &counts.Added, &counts.Removed)
	var removed, added, out []RowChange
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, counts, err
		}
		rc := RowChange{Kind: fmt.Sprint(vals[0])}
		if p, ok := vals[1].(string); ok {
			rc.Partition = p
		}
		if rc.Kind != RowAdded {
			rc.Old = jsonValues(vals[2 : 2+n])
		}
		if rc.Kind != RowRemoved {
			rc.New = jsonValues(vals[2+n:])
		}
		switch {
		case len(d.keys) > 0:
			out = append(out, rc)
		case rc.Kind == RowRemoved:
			removed = append(removed, rc)
		default:
			added = append(added, rc)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, counts, err
	}
	if len(d.keys) > 0 {
		return out, counts, nil
	}
	// Whole rows cannot pair up: show both kinds, half the rows each when
	// both have more than that.
	k := min(len(removed), max(limit/2, limit-len(added)))
	out = append(removed[:k], added[:min(len(added), limit-k)]...)
	return out, counts, nil
}

// jsonValues copies scanned values into JSON-friendly ones.
func jsonValues(vals []any) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case []byte:
			out[i] = string(x)
		case *big.Int:
			out[i] = x.String()
		case duckdb.Decimal:
			out[i] = sdk.DecimalFromUnscaled(x.Value, x.Scale)
		case uint64:
			out[i] = strconv.FormatUint(x, 10) // beyond 2^53 a JSON number would round
		default:
			out[i] = x
		}
	}
	return out
}
