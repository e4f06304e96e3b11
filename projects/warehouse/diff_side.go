package warehouse

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A diff compares two sides, each a set of (partition, version) of one
// product: one partition's two versions, or a backfill's staged versions
// against the versions current in the same partitions. Every query reads
// the sides inside DuckDB as relations built by sideSQL; nothing but counts,
// summaries and the first changed rows comes back to Go.

// versionMeta is what the catalog knows of one version.
type versionMeta struct {
	partition string
	version   int
	table     string
	rows      int64
	schema    []sdk.Field
	hash      string // "" when the version predates content hashes
	start     time.Time
}

// sameContent reports whether the catalog alone proves that two versions
// hold the same rows.
func sameContent(a, b *versionMeta) bool {
	return a != nil && b != nil && a.hash != "" && a.hash == b.hash && a.rows == b.rows &&
		encodeSchema(a.schema) == encodeSchema(b.schema)
}

// versionMetas reads the catalog rows of the given versions of a product,
// keyed by partition and version; versions not kept are absent.
func versionMetas(ctx context.Context, q querier, product string, refs []partVersion) (map[partVersion]*versionMeta, error) {
	out := make(map[partVersion]*versionMeta, len(refs))
	if len(refs) == 0 {
		return out, nil
	}
	// A long list is not spelled out as VALUES: DuckDB spends longer
	// parsing and binding thousands of tuples than reading every version of
	// the product, which the wanted set filters here.
	query, args := `SELECT v.partition, v.version, v.storage_table, v.row_count, v.schema::VARCHAR, coalesce(v.content_hash, ''), v.partition_start
		FROM _strata.versions v WHERE v.product = ?`, []any{product}
	var want map[partVersion]bool
	if len(refs) > 64 {
		want = make(map[partVersion]bool, len(refs))
		for _, r := range refs {
			want[r] = true
		}
	} else {
		var b strings.Builder
		for i, r := range refs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%s, %d)", quoteLiteral(r.partition), r.version)
		}
		query += ` AND (v.partition, v.version) IN (VALUES ` + b.String() + `)`
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("versions of %s: %w", product, err)
	}
	defer rows.Close()
	schemas := map[string][]sdk.Field{} // decoded once per distinct schema
	for rows.Next() {
		m := &versionMeta{}
		var schemaJSON string
		if err := rows.Scan(&m.partition, &m.version, &m.table, &m.rows, &schemaJSON, &m.hash, &m.start); err != nil {
			return nil, err
		}
		if want != nil && !want[partVersion{m.partition, m.version}] {
			continue
		}
		s, ok := schemas[schemaJSON]
		if !ok {
			if s, err = decodeSchema(schemaJSON); err != nil {
				return nil, fmt.Errorf("%s partition %s version %d: %w", product, m.partition, m.version, err)
			}
			schemas[schemaJSON] = s
		}
		m.schema = s
		out[partVersion{m.partition, m.version}] = m
	}
	return out, rows.Err()
}

type partVersion struct {
	partition string
	version   int
}

// side is one side of a diff: versions grouped by storage table.
type side struct {
	metas []*versionMeta
	// whole counts, per storage table and version number, the versions of
	// the product the catalog has (versionCounts). A side holding all of
	// them selects the table's rows by version number alone, which DuckDB
	// prunes by row group, instead of joining every row against the list of
	// (partition, version) pairs: a backfill's staged versions of five years
	// are typically all the version 2s of their table. The table may still
	// hold rows of dropped versions of that number (orphan_sweep.go), so
	// the partitions are the catalog's: product names them.
	whole   map[tableVersion]int
	product string
	// mem, when set, is a table that is not in the warehouse (a replay's
	// output): the side is its rows, read through strata_rows, and metas
	// holds one pseudo version describing it (diff_table.go).
	mem *memSide
}

type tableVersion struct {
	table   string
	version int
}

// versionCounts counts a product's versions by storage table and number.
func versionCounts(ctx context.Context, q querier, product string) (map[tableVersion]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT storage_table, version, count(*) FROM _strata.versions WHERE product = ? GROUP BY ALL`, product)
	if err != nil {
		return nil, fmt.Errorf("count versions of %s: %w", product, err)
	}
	defer rows.Close()
	out := map[tableVersion]int{}
	for rows.Next() {
		var k tableVersion
		var n int
		if err := rows.Scan(&k.table, &k.version, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

// tables lists the side's storage tables with their schemas, newest
// (highest version) first, so a union keeps the newest spelling and order.
func (s side) tables() []storageTable {
	newest := map[string]int{}
	schema := map[string][]sdk.Field{}
	for _, m := range s.metas {
		if m.version >= newest[m.table] {
			newest[m.table] = m.version
		}
		schema[m.table] = m.schema
	}
	out := make([]storageTable, 0, len(newest))
	for name := range newest {
		out = append(out, storageTable{name: name, schema: schema[name]})
	}
	sort.Slice(out, func(i, j int) bool {
		if newest[out[i].name] != newest[out[j].name] {
			return newest[out[i].name] > newest[out[j].name]
		}
		return out[i].name < out[j].name
	})
	return out
}

// sideSQL selects the side's rows projected onto cols, with a leading
// _partition column. An empty side is an empty relation of that shape.
func sideSQL(s side, cols []unionColumn) string {
	if s.mem != nil {
		return s.mem.sql(cols)
	}
	byTable := map[string][]*versionMeta{}
	for _, m := range s.metas {
		byTable[m.table] = append(byTable[m.table], m)
	}
	var b strings.Builder
	n := 0
	for _, t := range s.tables() {
		ms := byTable[t.name]
		if s.whole != nil {
			byVersion := map[int]int{}
			for _, m := range ms {
				byVersion[m.version]++
			}
			var rest []*versionMeta
			for _, m := range ms {
				if byVersion[m.version] != s.whole[tableVersion{t.name, m.version}] {
					rest = append(rest, m)
				}
			}
			var whole []int
			for v, c := range byVersion {
				if c == s.whole[tableVersion{t.name, v}] {
					whole = append(whole, v)
				}
			}
			sort.Ints(whole)
			for _, v := range whole {
				if n > 0 {
					b.WriteString(" UNION ALL ")
				}
				n++
				fmt.Fprintf(&b, "SELECT %s FROM %s AS t WHERE t.%s = %d AND t.%s IN (SELECT partition FROM _strata.versions WHERE product = %s AND storage_table = %s AND version = %d)",
					selectList(t, cols), qualified(t.name), colVersion, v, colPartition, quoteLiteral(s.product), quoteLiteral(t.name), v)
			}
			if ms = rest; len(ms) == 0 {
				continue
			}
		}
		if n > 0 {
			b.WriteString(" UNION ALL ")
		}
		n++
		if len(ms) == 1 {
			fmt.Fprintf(&b, "SELECT %s FROM %s AS t WHERE t.%s = %s AND t.%s = %d",
				selectList(t, cols), qualified(t.name), colPartition, quoteLiteral(ms[0].partition), colVersion, ms[0].version)
			continue
		}
		values := make([]string, len(ms))
		for i, m := range ms {
			values[i] = fmt.Sprintf("(%s, %d)", quoteLiteral(m.partition), m.version)
		}
		fmt.Fprintf(&b, "SELECT %s FROM %s AS t JOIN (VALUES %s) AS s(p, v) ON t.%s = s.p AND t.%s = s.v",
			selectList(t, cols), qualified(t.name), strings.Join(values, ", "), colPartition, colVersion)
	}
	if n == 0 {
		// No version: the shape of cols, no rows.
		parts := []string{"CAST(NULL AS VARCHAR) AS " + colPartition}
		for _, c := range cols {
			parts = append(parts, fmt.Sprintf("CAST(NULL AS %s) AS %s", duckType(c.f), quoteIdent(c.name)))
		}
		return "SELECT " + strings.Join(parts, ", ") + " WHERE false"
	}
	return b.String()
}

// schemaOf is the union schema of a side (newest first), nil when empty.
func schemaOf(s side) []unionColumn { return unionSchema(s.tables()) }

// diffColumns is the union of both sides' columns: the new side's order,
// then columns only the old side has. A column whose type differs takes the
// common type, so the sides compare value by value.
func diffColumns(before, after side) []unionColumn {
	return unionSchema(append(after.tables(), before.tables()...))
}
