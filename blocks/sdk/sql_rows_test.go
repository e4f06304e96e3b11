package sdk_test

import (
	"context"
	"database/sql"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// openDuck is a real DuckDB file through database/sql: the driver a block
// would use is the block's choice; the helpers take any *sql.DB.
func openDuck(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(t.TempDir(), "dest.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestFromRowsTypesExactly(t *testing.T) {
	db := openDuck(t)
	mustExec(t, db, `CREATE TABLE src (i BIGINT, n INTEGER, f DOUBLE, d DECIMAL(10,2), b BOOLEAN, day DATE, ts TIMESTAMP,
		tz TIMESTAMPTZ, s VARCHAR, u UBIGINT, h HUGEINT)`)
	mustExec(t, db, `INSERT INTO src VALUES
		(1, 7, 1.5, 12.34, true, DATE '2024-03-10', TIMESTAMP '2024-03-10 02:30:00', TIMESTAMPTZ '2024-03-10 12:00:00+00', 'x',
		 18446744073709551615, 170141183460469231731687303715884105727),
		(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	rows, err := db.Query(`SELECT * FROM src ORDER BY i NULLS LAST`)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := sdk.FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	want := []sdk.Field{sdk.Int64("i"), sdk.Int64("n"), sdk.Float64("f"), sdk.Decimal("d", 10, 2), sdk.Bool("b"), sdk.Date("day"),
		sdk.Timestamp("ts"), sdk.Time("tz"), sdk.String("s"), sdk.Uint64("u"), sdk.Int128("h")}
	got := tb.Schema()
	if len(got) != len(want) {
		t.Fatalf("schema %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if tb.Len() != 2 {
		t.Fatalf("rows = %d, want 2", tb.Len())
	}
	r := tb.Row(0)
	h, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10)
	if r[0] != int64(1) || r[1] != int64(7) || r[2] != 1.5 || r[3] != "12.34" || r[4] != true || r[8] != "x" ||
		r[9] != uint64(18446744073709551615) || r[10].(*big.Int).Cmp(h) != 0 {
		t.Errorf("row 0 = %#v", r)
	}
	if d := r[5].(time.Time); !d.Equal(time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date %v", d)
	}
	if ts := r[6].(time.Time); !ts.Equal(time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC)) {
		t.Errorf("timestamp %v (want the wall time 02:30)", ts)
	}
	if tz := r[7].(time.Time); !tz.Equal(time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("timestamptz %v", tz)
	}
	for i, c := range tb.Columns() {
		if !c.IsNull(1) {
			t.Errorf("column %d (%s) row 1 is not null", i, c.Name)
		}
	}
}

func TestUpsertByKeyIsIdempotent(t *testing.T) {
	db := openDuck(t)
	ctx := context.Background()
	mustExec(t, db, `CREATE TABLE metrics (day DATE, shop VARCHAR, revenue DECIMAL(12,2), orders BIGINT, PRIMARY KEY (day, shop))`)
	mk := func(rows ...[]any) *sdk.Table {
		tb := sdk.NewTable(sdk.Date("day"), sdk.String("shop"), sdk.Decimal("revenue", 12, 2), sdk.Int64("orders"))
		for _, r := range rows {
			tb.Append(r...)
		}
		return tb
	}
	d1 := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	first := mk([]any{d1, "a", "10.50", int64(3)}, []any{d1, "b", "1.00", int64(1)})
	for range 2 { // the second write is an export run again under its key
		if n, err := sdk.Upsert(ctx, db, "metrics", []string{"day", "shop"}, first, sdk.WriteOptions{BatchRows: 1}); err != nil || n != 2 {
			t.Fatalf("upsert: %d %v", n, err)
		}
	}
	second := mk([]any{d1, "b", "2.25", int64(2)}, []any{d1, "c", "7.00", int64(1)})
	if _, err := sdk.Upsert(ctx, db, "metrics", []string{"day", "shop"}, second, sdk.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	var n int
	var sum string
	if err := db.QueryRow(`SELECT count(*), sum(revenue)::VARCHAR FROM metrics`).Scan(&n, &sum); err != nil || n != 3 || sum != "19.75" {
		t.Fatalf("metrics: %d rows, revenue %s (%v); want 3 rows, 19.75", n, sum, err)
	}
	if _, err := sdk.Upsert(ctx, db, "metrics", []string{"nope"}, second, sdk.WriteOptions{}); err == nil {
		t.Fatal("upsert by a column the table lacks: no error")
	}
}

func TestReplacePartitionInOneTransaction(t *testing.T) {
	db := openDuck(t)
	ctx := context.Background()
	mustExec(t, db, `CREATE TABLE orders (day VARCHAR, id BIGINT)`)
	mustExec(t, db, `INSERT INTO orders VALUES ('2024-03-09', 1), ('2024-03-10', 2), ('2024-03-10', 3)`)
	tb := sdk.NewTable(sdk.String("day"), sdk.Int64("id"))
	tb.Append("2024-03-10", int64(4))
	for range 2 {
		if _, err := sdk.ReplacePartition(ctx, db, "orders", "day", "2024-03-10", tb, sdk.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var ids string
	if err := db.QueryRow(`SELECT string_agg(id::VARCHAR, ',' ORDER BY id) FROM orders`).Scan(&ids); err != nil || ids != "1,4" {
		t.Fatalf("ids %q %v, want 1,4", ids, err)
	}
	// A failing insert (a string into a BIGINT) leaves the partition as it was.
	bad := sdk.NewTable(sdk.String("day"), sdk.String("id"))
	bad.Append("2024-03-10", "not a number")
	if _, err := sdk.ReplacePartition(ctx, db, "orders", "day", "2024-03-10", bad, sdk.WriteOptions{}); err == nil {
		t.Fatal("bad rows: no error")
	}
	if err := db.QueryRow(`SELECT string_agg(id::VARCHAR, ',' ORDER BY id) FROM orders`).Scan(&ids); err != nil || ids != "1,4" {
		t.Fatalf("after a failed replace: ids %q %v, want 1,4 (rolled back)", ids, err)
	}
}
