package warehouse

import (
	"context"
	"database/sql"
	"errors"
	"testing"
)

func TestCheckReadOnly(t *testing.T) {
	t.Parallel()
	allowed := []string{
		"SELECT 1",
		"  -- a comment\n /* another */ (SELECT 1)",
		"with a as (select 1) select * from a",
		"FROM orders LIMIT 5",
		"DESCRIBE orders", "SUMMARIZE orders", "SHOW TABLES",
		"EXPLAIN SELECT 1", "EXPLAIN ANALYZE SELECT 1",
		"PRAGMA table_info('orders')",
		"SELECT ';' AS semicolon, \"a;b\" FROM t;",
		"SELECT $$ ; DROP TABLE x $$ AS s",
		"SELECT E'it\\'s; fine' AS s",
		"SELECT ? AS a, $1 AS b",
		"SELECT 1; -- trailing comment",
	}
	for _, q := range allowed {
		if err := checkReadOnly(q); err != nil {
			t.Errorf("%q refused: %v", q, err)
		}
	}
	refused := map[string]string{
		"DELETE FROM orders":                 "starts with DELETE",
		"insert into t values (1)":           "starts with INSERT",
		"CREATE TABLE x AS SELECT 1":         "starts with CREATE",
		"ATTACH 'other.duckdb'":              "starts with ATTACH",
		"COPY orders TO 'x.csv'":             "starts with COPY",
		"SELECT 1; DROP TABLE orders":        "more than one statement",
		"EXPLAIN ANALYZE DELETE FROM orders": "starts with DELETE",
		"PRAGMA enable_profiling":            "starts with PRAGMA enable_profiling",
		"/* SELECT */ UPDATE t SET a = 1":    "starts with UPDATE",
		"   ":                                "empty statement",
	}
	for q, want := range refused {
		err := checkReadOnly(q)
		assertErrContains(t, err, want)
		if want != "empty statement" && !errors.Is(err, ErrNotReadOnly) {
			t.Errorf("%q: error does not wrap ErrNotReadOnly: %v", q, err)
		}
	}
}

func TestQueryRefusesWritesAndRunsReadOnly(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	ctx := context.Background()
	publish(t, wh, "orders", "2024-03-10", ids(t, 1, 2))
	_, err := wh.Query(ctx, `DELETE FROM _strata.versions`)
	assertErrContains(t, err, "query: only read-only statements are allowed: this statement starts with DELETE (allowed: SELECT, WITH, FROM, DESCRIBE, SUMMARIZE, SHOW, EXPLAIN, PRAGMA table_info)")
	// The second guard: whatever passes the keyword check runs in a READ
	// ONLY transaction, where DuckDB refuses writes itself.
	err = wh.readTx(ctx, func(conn *sql.Conn) error {
		_, err := conn.ExecContext(ctx, `DELETE FROM _strata.versions`)
		return err
	})
	assertErrContains(t, err, "read-only")
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions`); n != 1 {
		t.Fatalf("catalog has %d rows after refused writes", n)
	}
	// Parameters bind.
	assertRows(t, query(t, wh, `SELECT id FROM orders WHERE id > ? ORDER BY id`, 1), row(int64(2)))
	// Every allowed kind of statement runs in the read-only transaction.
	for _, q := range []string{
		`DESCRIBE orders`, `SHOW TABLES`, `SUMMARIZE orders`, `PRAGMA table_info('orders')`,
		`EXPLAIN SELECT * FROM orders`, `EXPLAIN ANALYZE SELECT count(*) FROM orders`,
		`FROM orders`, `WITH x AS (FROM orders) SELECT count(*) FROM x`,
	} {
		if tbl := query(t, wh, q); tbl.Len() == 0 {
			t.Errorf("%s returned no rows", q)
		}
	}
}
