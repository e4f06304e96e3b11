package warehouse

import (
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// unionColumn is one column of the union of several storage tables.
type unionColumn struct {
	name string    // spelling in the newest table that has the column
	typ  sdk.Type  // common type of the column across tables
	f    sdk.Field // typ with a decimal's precision and scale
}

// unionSchema merges the schemas of tables given newest first. Columns keep
// the newest table's order, columns only older tables have follow. Names
// match case-insensitively (as in DuckDB). A column whose type differs
// between tables becomes float64 when it is only int64 and float64, and
// string otherwise, so that any mix of schemas can be read together.
func unionSchema(tables []storageTable) []unionColumn {
	var out []unionColumn
	index := map[string]int{}
	for _, t := range tables {
		for _, f := range t.schema {
			key := strings.ToLower(f.Name)
			i, ok := index[key]
			if !ok {
				index[key] = len(out)
				out = append(out, unionColumn{name: f.Name, typ: f.Type, f: f})
				continue
			}
			out[i].f = commonField(out[i].f, f)
			out[i].typ = out[i].f.Type
		}
	}
	return out
}

// commonField is the type both a and b convert to. Decimals of different
// scales, and every other mix but int64 with float64, become strings: their
// exact text, where a float would round.
func commonField(a, b sdk.Field) sdk.Field {
	a.Name = ""
	b.Name = ""
	switch {
	case a == b:
		return a
	case (a.Type == sdk.TypeInt64 && b.Type == sdk.TypeFloat64) || (a.Type == sdk.TypeFloat64 && b.Type == sdk.TypeInt64):
		return sdk.Field{Type: sdk.TypeFloat64}
	}
	return sdk.Field{Type: sdk.TypeString}
}

// selectList is the projection of one storage table (alias t) onto a union
// schema: _partition, then every union column, cast or NULL as needed.
func selectList(t storageTable, cols []unionColumn) string {
	have := make(map[string]sdk.Field, len(t.schema))
	for _, f := range t.schema {
		have[strings.ToLower(f.Name)] = f
	}
	var b strings.Builder
	b.WriteString("t." + colPartition)
	for _, c := range cols {
		b.WriteString(", ")
		f, ok := have[strings.ToLower(c.name)]
		switch {
		case !ok:
			fmt.Fprintf(&b, "CAST(NULL AS %s) AS %s", duckType(c.f), quoteIdent(c.name))
		case f.Type != c.typ || f.Precision != c.f.Precision || f.Scale != c.f.Scale:
			fmt.Fprintf(&b, "CAST(t.%s AS %s) AS %s", quoteIdent(f.Name), duckType(c.f), quoteIdent(c.name))
		default:
			fmt.Fprintf(&b, "t.%s AS %s", quoteIdent(f.Name), quoteIdent(c.name))
		}
	}
	return b.String()
}

// newestFirst returns the tables of a product from the newest to the oldest.
func newestFirst(tables []storageTable) []storageTable {
	out := make([]storageTable, len(tables))
	for i, t := range tables {
		out[len(tables)-1-i] = t
	}
	return out
}

// viewSQL is the DDL of a product's view: the current version of every
// partition, across all its storage tables, without _version.
func viewSQL(ps *productStorage) string {
	tables := newestFirst(ps.tables)
	cols := unionSchema(tables)
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE OR REPLACE VIEW main.%s AS\n", quoteIdent(ps.name))
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\nUNION ALL\n")
		}
		fmt.Fprintf(&b, "SELECT %s FROM %s AS t JOIN _strata.current AS c ON c.product = %s AND c.partition = t.%s AND c.version = t.%s",
			selectList(t, cols), qualified(t.name), quoteLiteral(ps.name), colPartition, colVersion)
	}
	return b.String()
}
