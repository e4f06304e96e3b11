package launcher

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

// A recorded copy of a new-key firing keeps its cells: resumed after a
// crash, it runs the keys prod's work ran, not every key (the copy table
// once kept only the time range).
func TestRecordedCopyKeepsItsCells(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE SCHEMA _strata`); err != nil {
		t.Fatal(err)
	}
	s, err := openTickStore(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	f := Firing{Pipeline: "p", WorkID: "bf_1", WorkKind: WorkBackfill, From: "2024-01-01", To: "2024-01-03",
		Where: map[string][]string{"customer": {"c3"}}, KeySets: map[string]int{"customer": 4}}
	if _, err := s.recordCopies(ctx, f, []string{"env:dev"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	cs, err := s.copies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 {
		t.Fatalf("copies = %d, want 1", len(cs))
	}
	if !reflect.DeepEqual(cs[0].Where, f.Where) || !reflect.DeepEqual(cs[0].KeySets, f.KeySets) {
		t.Fatalf("the copy's cells = %v %v, want %v %v", cs[0].Where, cs[0].KeySets, f.Where, f.KeySets)
	}
}
