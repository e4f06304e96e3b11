package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// ColumnSummary is what one side of a diff holds in one column.
type ColumnSummary struct {
	Nulls    int64    `json:"nulls"`
	Distinct int64    `json:"distinct"`
	Min      *string  `json:"min"` // as DuckDB casts it to text; nil when every value is NULL
	Max      *string  `json:"max"`
	Sum      *float64 `json:"sum,omitempty"` // numeric columns only (integers, DECIMAL, DOUBLE)
	Mean     *float64 `json:"mean,omitempty"`
	// Total is the exact sum of a numeric column as decimal text: summed
	// in DECIMAL or HUGEINT arithmetic for exact types (Sum is its nearest
	// float64), the DOUBLE sum for floats. Nil when every value is NULL,
	// or when the total could not be read (TotalNote says why).
	Total     *string `json:"total,omitempty"`
	TotalNote string  `json:"total_note,omitempty"`
}

// ColumnChange compares one column across the sides; Before or After is
// nil when that side lacks the column.
type ColumnChange struct {
	Name    string         `json:"name"`
	Type    string         `json:"type"` // on the new side (the old one when removed)
	Before  *ColumnSummary `json:"before"`
	After   *ColumnSummary `json:"after"`
	Changed bool           `json:"changed"`
}

// SchemaChange lists columns added, removed and retyped between two sides
// (names matched case-insensitively, as DuckDB does).
type SchemaChange struct {
	Added   []ColumnType `json:"added"`
	Removed []ColumnType `json:"removed"`
	Retyped []Retype     `json:"retyped"`
}

// ColumnType is a column and its type.
type ColumnType struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// Retype is a column whose type changed.
type Retype struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Empty reports whether the schema did not change.
func (s SchemaChange) Empty() bool {
	return len(s.Added)+len(s.Removed)+len(s.Retyped) == 0
}

// schemaChange compares the union schemas of two sides. An empty side has
// no schema to compare (a new partition adds rows, not columns).
func schemaChange(before, after []unionColumn) SchemaChange {
	out := SchemaChange{Added: []ColumnType{}, Removed: []ColumnType{}, Retyped: []Retype{}}
	if len(before) == 0 || len(after) == 0 {
		return out
	}
	old := map[string]unionColumn{}
	for _, c := range before {
		old[strings.ToLower(c.name)] = c
	}
	seen := map[string]bool{}
	for _, c := range after {
		key := strings.ToLower(c.name)
		seen[key] = true
		o, ok := old[key]
		switch {
		case !ok:
			out.Added = append(out.Added, ColumnType{c.name, c.typ.String()})
		case o.typ != c.typ:
			out.Retyped = append(out.Retyped, Retype{c.name, o.typ.String(), c.typ.String()})
		}
	}
	for _, c := range before {
		if !seen[strings.ToLower(c.name)] {
			out.Removed = append(out.Removed, ColumnType{c.name, c.typ.String()})
		}
	}
	return out
}

// summarize aggregates every column of both sides of a diff in one query
// (one round trip, both scans planned together). With keys it also counts,
// per side, the rows beyond the first of each (partition, key), which make
// the key unusable for pairing rows. approx counts distinct values with
// HyperLogLog (approx_count_distinct, a few percent off) instead of exactly:
// a set diff over millions of rows pays for an exact distinct count per
// column more than for everything else together.
func summarize(ctx context.Context, q querier, sides [2]side, cols [2][]unionColumn, keys []string, approx bool) ([2][]ColumnSummary, [2]int64, error) {
	var out [2][]ColumnSummary
	var dups [2]int64
	distinct := "count(DISTINCT %[1]s)"
	if approx {
		distinct = "approx_count_distinct(%[1]s)"
	}
	var parts, ctes []string
	var ptrs []any
	var fill []func()
	for i, s := range sides {
		out[i] = make([]ColumnSummary, len(cols[i]))
		if len(s.metas) == 0 || len(cols[i]) == 0 {
			continue
		}
		var sel []string
		sum := out[i]
		for j, c := range cols[i] {
			id := quoteIdent(c.name)
			sel = append(sel, fmt.Sprintf("count(*) - count(%[1]s), "+distinct+", min(%[1]s)::VARCHAR, max(%[1]s)::VARCHAR", id))
			var mn, mx sql.NullString
			ptrs = append(ptrs, &sum[j].Nulls, &sum[j].Distinct, &mn, &mx)
			var tot *totals
			if Numeric(c.typ) {
				var q string
				tot, q = newTotals(id, c.f)
				sel = append(sel, q)
				ptrs = append(ptrs, tot.ptrs()...)
			}
			fill = append(fill, func() {
				sum[j].Min, sum[j].Max = nullString(mn), nullString(mx)
				if tot != nil {
					tot.fill(&sum[j])
				}
			})
		}
		if len(keys) > 0 {
			// Hashed: a distinct count of one integer, not of a struct.
			sel = append(sel, fmt.Sprintf("count(*) - count(DISTINCT hash(%s, %s))", colPartition, identList("", keys)))
		} else {
			sel = append(sel, "0")
		}
		ptrs = append(ptrs, &dups[i])
		name := fmt.Sprintf("s%d", i)
		ctes = append(ctes, name+" AS ("+sideSQL(s, cols[i])+")")
		parts = append(parts, "(SELECT "+strings.Join(sel, ", ")+" FROM "+name+")")
	}
	if len(parts) == 0 {
		return out, dups, nil
	}
	rows, err := q.QueryContext(ctx, "WITH "+strings.Join(ctes, ", ")+" SELECT * FROM "+strings.Join(parts, " CROSS JOIN "))
	if err != nil {
		return out, dups, fmt.Errorf("summarize columns: %w", err)
	}
	defer rows.Close()
	if !rows.Next() {
		return out, dups, rows.Err()
	}
	if err := rows.Scan(ptrs...); err != nil {
		return out, dups, fmt.Errorf("summarize columns: %w", err)
	}
	for _, f := range fill {
		f()
	}
	return out, dups, rows.Err()
}

func nullString(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

func nullFloat(f sql.NullFloat64) *float64 {
	if !f.Valid {
		return nil
	}
	return &f.Float64
}

// columnChanges summarizes both sides and pairs the columns by name; with
// keys it also returns how many rows repeat a key on each side.
func columnChanges(ctx context.Context, q querier, before, after side, keys []string, approx bool) ([]ColumnChange, [2]int64, error) {
	bcols, acols := schemaOf(before), schemaOf(after)
	sums, dups, err := summarize(ctx, q, [2]side{before, after}, [2][]unionColumn{bcols, acols}, keys, approx)
	if err != nil {
		return nil, dups, err
	}
	bs, as := sums[0], sums[1]
	oldIdx := map[string]int{}
	for i, c := range bcols {
		oldIdx[strings.ToLower(c.name)] = i
	}
	var out []ColumnChange
	seen := map[string]bool{}
	for i, c := range acols {
		cc := ColumnChange{Name: c.name, Type: c.typ.String(), After: &as[i]}
		if j, ok := oldIdx[strings.ToLower(c.name)]; ok {
			cc.Before = &bs[j]
		}
		seen[strings.ToLower(c.name)] = true
		cc.Changed = !sameSummary(cc.Before, cc.After)
		out = append(out, cc)
	}
	for j, c := range bcols {
		if !seen[strings.ToLower(c.name)] {
			out = append(out, ColumnChange{Name: c.name, Type: c.typ.String(), Before: &bs[j], Changed: true})
		}
	}
	return out, dups, nil
}

func sameSummary(a, b *ColumnSummary) bool {
	if a == nil || b == nil {
		return a == b
	}
	eqS := func(x, y *string) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	eqF := func(x, y *float64) bool { return (x == nil && y == nil) || (x != nil && y != nil && *x == *y) }
	return a.Nulls == b.Nulls && a.Distinct == b.Distinct && eqS(a.Min, b.Min) && eqS(a.Max, b.Max) && eqF(a.Sum, b.Sum) && eqF(a.Mean, b.Mean) && eqS(a.Total, b.Total)
}
