package warehouse

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// A SQL block ATTACHes a real Postgres and selects one partition's rows
// with the partition bounds as parameters.
func TestSQLBlockAttachesPostgresAndSelectsThePartition(t *testing.T) {
	exttest.Require(t, "postgres")
	pg := pgtest.Start(t)
	pg.Psql(t, `CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2), created_at timestamptz);
		INSERT INTO orders VALUES (1, 9.50, '2024-01-01 10:00Z'), (2, 20.25, '2024-01-01 23:59Z'), (3, 5, '2024-01-02 00:00Z')`)
	pg.Psql(t, "CREATE DATABASE other")
	w := openTemp(t, Options{Extensions: []string{"postgres"}})
	ctx := context.Background()
	block := "-- the source\nATTACH '" + pg.ConnString() + "' AS pg (TYPE postgres);\n" +
		"SELECT id, amount FROM pg.public.orders WHERE created_at >= $partition_start AND created_at < $partition_end ORDER BY id"
	day := func(d string) map[string]any {
		start, _ := time.Parse(time.DateOnly, d)
		return map[string]any{"partition_key": d, "partition_start": start, "partition_end": start.AddDate(0, 0, 1)}
	}
	out, err := w.RunSQL(ctx, block, nil, day("2024-01-01"))
	if err != nil {
		t.Fatal(err)
	}
	if ids := out.Column("id").Int64s(); len(ids) != 2 || ids[0] != 1 || ids[1] != 2 {
		t.Fatalf("2024-01-01: ids %v, want [1 2]", ids)
	}
	if got := out.Column("amount").Decimals(); got[0] != "9.50" || got[1] != "20.25" {
		t.Errorf("amounts %v: want the exact decimals", got)
	}
	out, err = w.RunSQL(ctx, block, nil, day("2024-01-02"))
	if err != nil {
		t.Fatal(err)
	}
	if ids := out.Column("id").Int64s(); len(ids) != 1 || ids[0] != 3 {
		t.Fatalf("2024-01-02: ids %v, want [3]", ids)
	}
	// Attached once for both partitions, read-only.
	var n int
	var ro bool
	if err := w.DB().QueryRowContext(ctx, "SELECT count(*), bool_and(readonly) FROM duckdb_databases() WHERE database_name = 'pg'").Scan(&n, &ro); err != nil || n != 1 || !ro {
		t.Fatalf("pg attached %d times, read-only %v (%v); want once, read-only", n, ro, err)
	}
	// The same alias on another target, once no block uses it: attached anew.
	other := strings.Replace(pg.ConnString(), "dbname=postgres", "dbname=other", 1)
	if _, err := w.RunSQL(ctx, "ATTACH '"+other+"' AS pg (TYPE postgres); SELECT * FROM pg.public.orders", nil, nil); err == nil ||
		!strings.Contains(err.Error(), "orders") {
		t.Fatalf("orders in database other: %v, want a missing table", err)
	}
}

func TestSQLBlockStatementsOtherThanAttachAreRefused(t *testing.T) {
	w := openTemp(t)
	ctx := context.Background()
	for _, c := range []struct{ sql, want string }{
		{"CREATE TABLE x (a int); SELECT 1", `statement 1 of 2: want ATTACH 'target' AS alias (options), got a statement starting with "CREATE"`},
		{"ATTACH 'x.db'; SELECT 1", "an alias to name its tables by"},
		{"ATTACH 'x.db' AS main; SELECT 1", "alias main is taken by the warehouse"},
		{"SELECT 1; SELECT 2", `got a statement starting with "SELECT"`},
		{"ATTACH 'x.db' AS x; DELETE FROM t", "a SQL block is one SELECT (after ATTACH statements)"},
		{`SELECT '{{secret "pg"}}' AS leak`, "may only stand in an ATTACH's target"},
		{"COPY (SELECT 1 AS x) TO 's3://lake/x.parquet' (FORMAT parquet)", `a SQL block cannot COPY … TO or EXPORT: it computes a product and may run again`},
		{"SELECT 1 AS x;\n-- out\n copy (SELECT 1) TO 'x.csv'", `ctx.ExportParquet("s3://bucket/prefix")`},
		{"ATTACH 'x.db' AS x; /* all */ EXPORT DATABASE 'out'", "under the export ledger"},
		{`ATTACH '{{secret "pg"}}' AS pg (TYPE postgres); SELECT 1`, `this project names no secrets in strata.yaml`},
	} {
		if _, err := w.RunSQL(ctx, c.sql, nil, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n  got  %v\n  want %s", c.sql, err, c.want)
		}
	}
	// A semicolon inside a string or comment splits nothing.
	out, err := w.RunSQL(ctx, "-- a; b\nSELECT 'x;y' AS s /* ; */", nil, nil)
	if err != nil || out.Column("s").Strings()[0] != "x;y" {
		t.Fatalf("semicolons in a string and comments: %v", err)
	}
}
