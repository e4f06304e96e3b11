package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// A SQL block over tables in memory (the demo's daily metrics over the
// day's orders) costs DuckDB statements, each about a millisecond whatever
// it does: creating a temporary table, appending to it, the query, dropping
// the table. When the query starts with SELECT or FROM, its inputs can
// instead be common table expressions over strata_rows, the table function a
// publish hands its tables through: one statement, the query itself. A CTE
// shadows a table or view of the same name as the temporary table did, and
// strata_rows serves the rows in order with the types the temporary table
// had (duckTypeInfo and duckType agree). A query that starts with WITH
// keeps the temporary tables: its own CTE of an input's name must go on
// shadowing the input, which a second CTE of that name in the same WITH
// would refuse. A query that fails is run again the old way, so its error
// reads as it always did (no CTE prefix in DuckDB's quote of the line) and
// a query the rewrite does not suit (one naming temp.<input>) still runs.

// cteReady reports whether RunSQL may bind inputs as CTEs in query.
func cteReady(query string, inputs []SQLInput) bool {
	if readsInPlace(inputs) {
		return false
	}
	switch strings.ToUpper(firstWord(query)) {
	case "SELECT", "FROM":
		return true
	}
	return false
}

// firstWord is the query's first word after whitespace and comments, or ""
// when something else (a parenthesis) comes first.
func firstWord(q string) string {
	i := 0
	for i < len(q) {
		switch c := q[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(q[i:], "--"):
			i = skipLineComment(q, i)
		case strings.HasPrefix(q[i:], "/*"):
			i = skipBlockComment(q, i)
		case isWordByte(c):
			j := i
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			return q[i:j]
		default:
			return ""
		}
	}
	return ""
}

// runWithCTEs runs query with inputs (all in memory) bound as CTEs. An
// input named twice (names match case-insensitively, as in DuckDB) is the
// last one, as CREATE OR REPLACE made it.
func (w *Warehouse) runWithCTEs(ctx context.Context, query string, inputs []SQLInput, args []any) (*sdk.Table, error) {
	query, release, err := withInputCTEs(query, inputs)
	if err != nil {
		return nil, err
	}
	defer release()
	var out *sdk.Table
	err = w.onConn(ctx, func(conn *sql.Conn) error {
		var err error
		out, err = queryCTEs(ctx, conn, query, args)
		return err
	})
	return out, err
}

// withInputCTEs puts the inputs' tables before query as CTEs reading them
// in place (strata_rows); release hands the tables back.
func withInputCTEs(query string, inputs []SQLInput) (string, func(), error) {
	var releases []func()
	release := func() {
		for _, r := range releases {
			r()
		}
	}
	last := map[string]int{}
	for i, in := range inputs {
		if err := in.Table.Validate(); err != nil {
			return "", release, fmt.Errorf("upstream %s: %w", in.Name, err)
		}
		last[strings.ToLower(in.Name)] = i
	}
	var ctes []string
	for i, in := range inputs {
		if last[strings.ToLower(in.Name)] != i {
			continue
		}
		body := `SELECT CAST(NULL AS BOOLEAN) AS "_empty" WHERE false` // no columns: still a relation
		if len(in.Table.Columns()) > 0 {
			h, r := handOver(in.Table)
			releases = append(releases, r)
			body = fmt.Sprintf("SELECT * FROM %s(%d)", tableSourceFunc, h)
		}
		ctes = append(ctes, quoteIdent(in.Name)+" AS ("+body+")")
	}
	if len(ctes) > 0 {
		query = "WITH " + strings.Join(ctes, ", ") + "\n" + query
	}
	return query, release, nil
}

// queryCTEs runs a query withInputCTEs made on conn.
func queryCTEs(ctx context.Context, conn *sql.Conn, query string, args []any) (*sdk.Table, error) {
	out, err := queryTable(ctx, conn, query, args...)
	if err != nil && strings.Contains(err.Error(), tableSourceFunc+" does not exist") {
		// Nothing was published since Open, so no writer registered it yet.
		if rerr := registerTableSource(conn); rerr != nil {
			return nil, fmt.Errorf("register %s: %w", tableSourceFunc, rerr)
		}
		out, err = queryTable(ctx, conn, query, args...)
	}
	return out, err
}
