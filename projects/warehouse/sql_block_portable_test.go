package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A SQL block run over its input tables away from the warehouse (as a
// worker runs it) returns what the warehouse returns for the same query,
// tables and parameters; a query that reads a file is refused there.
func TestRunSQLOnTablesMatchesTheWarehouse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{})
	defer wh.Close()
	orders := bigTable(4000, 2, true)
	start := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	params := map[string]any{"partition_key": "2024-03-10", "partition_start": start, "partition_end": start.Add(time.Hour)}
	for _, q := range []string{
		`SELECT customer, count(*) AS n, round(sum(amount), 2) AS revenue, bool_or(refunded) AS any_refund, min(ts) AS first, $partition_key AS day
		 FROM orders WHERE ts >= $partition_start AND ts < $partition_end GROUP BY customer ORDER BY customer`,
		`WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT count(*) AS n FROM big`,
	} {
		want, _, _, err := wh.RunSQLBlockIn(ctx, "", q, []SQLInput{{Name: "orders", Table: orders}}, params)
		if err != nil {
			t.Fatal(err)
		}
		got, err := RunSQLOnTables(ctx, q, []string{"orders"}, []*sdk.Table{orders}, params)
		if err != nil {
			t.Fatal(err)
		}
		ws, _ := tableSchema(want)
		gs, _ := tableSchema(got)
		if got.Len() != want.Len() || len(gs) != len(ws) || contentHash(got, gs) != contentHash(want, ws) {
			t.Fatalf("%s\nworker: %d rows %v; warehouse: %d rows %v", q, got.Len(), gs, want.Len(), ws)
		}
		for i := range ws {
			if gs[i].Name != ws[i].Name || gs[i].SQLType() != ws[i].SQLType() {
				t.Fatalf("column %d: worker %s %s, warehouse %s %s", i, gs[i].Name, gs[i].SQLType(), ws[i].Name, ws[i].SQLType())
			}
		}
	}
	secret := filepath.Join(dir, "secret.csv")
	if err := os.WriteFile(secret, []byte("a\n1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"SELECT * FROM read_csv('" + secret + "')", "SELECT * FROM '" + secret + "'"} {
		if _, err := RunSQLOnTables(ctx, q, []string{"orders"}, []*sdk.Table{orders}, params); err == nil || !strings.Contains(err.Error(), "reads outside its inputs") {
			t.Errorf("%s: %v, want refused for reading outside its inputs (no file access there)", q, err)
		}
	}
	if _, err := RunSQLOnTables(ctx, "SELECT count(*) FROM orders", []string{"orders"}, []*sdk.Table{orders}, params); err != nil {
		t.Fatalf("after a refused query: %v", err)
	}
}

// Only a query that reads nothing but its inputs may leave the warehouse.
func TestSQLPortable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{})
	defer wh.Close()
	publish(t, wh, "orders", "2024-03-10", bigTable(10, 1, false))
	for _, c := range []struct {
		q    string
		in   []string
		want bool
	}{
		{"SELECT * FROM raw_orders", []string{"raw_orders"}, true},
		{"SELECT * FROM orders", []string{"orders"}, true}, // the input's name shadows the product
		{"SELECT * FROM raw_orders JOIN orders USING (id)", []string{"raw_orders"}, false},
		{"ATTACH 'x.duckdb' AS x; SELECT * FROM raw_orders", []string{"raw_orders"}, false},
		{"DELETE FROM raw_orders", []string{"raw_orders"}, false},
	} {
		if got := wh.SQLPortable(c.q, c.in); got != c.want {
			t.Errorf("SQLPortable(%q, %v) = %v, want %v", c.q, c.in, got, c.want)
		}
	}
}
