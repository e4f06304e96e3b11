package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Postgres types through pgx: numerics exact, arrays, jsonb, nulls, and
// the column descriptions a loader maps to table columns.
func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "{{PG_DSN}}")
	if err != nil {
		fmt.Println("connect:", err)
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT 12345.678::numeric(10,3) AS n, ARRAY['a','b']::text[] AS tags,
		'{"k": [1, 2]}'::jsonb AS doc, NULL::int AS missing, true AS ok, '2024-03-10'::date AS day, 7::smallint AS small`)
	if err != nil {
		fmt.Println("query:", err)
		return
	}
	for _, f := range rows.FieldDescriptions() {
		fmt.Printf("column %s oid %d\n", f.Name, f.DataTypeOID)
	}
	for rows.Next() {
		var n pgtype.Numeric
		var tags []string
		var doc map[string]any
		var missing pgtype.Int4
		var ok bool
		var day pgtype.Date
		var small int16
		if err := rows.Scan(&n, &tags, &doc, &missing, &ok, &day, &small); err != nil {
			fmt.Println("scan:", err)
			return
		}
		v, _ := n.Value()
		keys := make([]string, 0, len(doc))
		for k := range doc {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Println("numeric", v, "exp", n.Exp)
		fmt.Println("tags", strings.Join(tags, "|"), "doc keys", keys, "doc", doc["k"])
		fmt.Println("missing valid", missing.Valid, "ok", ok, "day", day.Time.Format("2006-01-02"), "small", small)
	}
	if err := rows.Err(); err != nil {
		fmt.Println("rows:", err)
	}
}
