package warehouse

import (
	"context"
	"database/sql"
	"sync"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// Regression (CI of 565f439): a replay's DiffTable registered strata_rows
// while the writer registered it on another connection of the same
// database; DuckDB's catalog saw two transactions create one entry and
// the diff failed with "could not create table UDF".
func TestRegisterTableSourceConcurrently(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	const n = 16
	conns := make([]*sql.Conn, n)
	for i := range conns {
		if conns[i], err = db.Conn(ctx); err != nil {
			t.Fatal(err)
		}
		defer conns[i].Close()
	}
	for round := 0; round < 500; round++ {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range conns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = registerTableSource(conns[i])
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, connection %d: %v", round, i, err)
			}
		}
	}
	var got int
	if err := conns[3].QueryRowContext(ctx, "SELECT count(*) FROM duckdb_functions() WHERE function_name = $1", tableSourceFunc).Scan(&got); err != nil || got == 0 {
		t.Fatalf("strata_rows not in the catalog after registering (%d, %v)", got, err)
	}
}
