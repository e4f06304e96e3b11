package tableview

import (
	"fmt"
	"strings"
)

// SQL returns the WHERE condition (without the keyword; "" when there is no
// filter) and the ORDER BY list (without the keyword; "" when unsorted) of
// q over a relation with the given columns, in DuckDB's dialect. tiebreak
// is appended to the ORDER BY (the relation's own row order) so a page is
// stable from one request to the next. The filter is a literal: no
// wildcards, quotes escaped.
func SQL(q Query, columns []string, tiebreak string) (where, orderBy string) {
	if q.Filter != "" {
		lit := "'" + strings.ReplaceAll(strings.ToLower(q.Filter), "'", "''") + "'"
		conds := make([]string, len(columns))
		for i, c := range columns {
			conds[i] = fmt.Sprintf("contains(lower(CAST(%s AS VARCHAR)), %s)", quoteIdent(c), lit)
		}
		where = "(" + strings.Join(conds, " OR ") + ")"
		if len(columns) == 0 {
			where = "false"
		}
	}
	for _, f := range q.Columns {
		cond, err := columnSQL(f)
		if err != nil {
			continue // Check refused it already
		}
		if where != "" {
			where += " AND "
		}
		where += cond
	}
	var keys []string
	for _, k := range q.Sort {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		keys = append(keys, fmt.Sprintf("%s %s NULLS LAST", quoteIdent(k.Column), dir))
	}
	if tiebreak != "" {
		keys = append(keys, tiebreak)
	}
	return where, strings.Join(keys, ", ")
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
