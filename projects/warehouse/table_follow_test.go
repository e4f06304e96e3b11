package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
)

// Follow on a lake answers what a plain query answers after inserts,
// updates that make rows match or stop matching, and deletes, reading
// only the changes after its first read.
func TestFollowAppliesInsertsUpdatesAndDeletesOnALake(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: fileLake(t, dir)})
	defer wh.Close()
	wh.follows.changesMin = 1 // read the changes of tables however small
	exec := func(q string) {
		t.Helper()
		if _, err := wh.DB().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec(`CREATE TABLE _strata.follow_t (id BIGINT, owner VARCHAR, state VARCHAR)`)
	exec(`INSERT INTO _strata.follow_t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'a', 'y')`)
	f := Followed{Table: "follow_t", Key: []string{"id"}, Columns: []string{"state"}, Where: "owner = ?", Args: []any{"a"}}
	check := func(step string, wantFull, wantDiff int) {
		t.Helper()
		got, err := wh.Follow(ctx, f)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		var have, want []string
		for _, r := range got {
			have = append(have, fmt.Sprint(r...))
		}
		for _, r := range rowsOf(query(t, wh, `SELECT id, state FROM _strata.follow_t WHERE owner = 'a'`)) {
			want = append(want, fmt.Sprint(r...))
		}
		slices.Sort(have)
		slices.Sort(want)
		if !slices.Equal(have, want) {
			t.Fatalf("%s: Follow = %v, the table says %v", step, have, want)
		}
		if wh.follows.full != wantFull || wh.follows.diff != wantDiff {
			t.Fatalf("%s: %d whole reads and %d reads of the changes, want %d and %d", step, wh.follows.full, wh.follows.diff, wantFull, wantDiff)
		}
	}
	check("first", 1, 0)
	check("unchanged", 1, 0)
	exec(`INSERT INTO _strata.follow_t VALUES (4, 'a', 'x'), (5, 'c', 'x')`)
	check("inserts", 1, 1)
	exec(`UPDATE _strata.follow_t SET owner = 'c' WHERE id = 1`) // stops matching
	exec(`UPDATE _strata.follow_t SET owner = 'a' WHERE id = 2`) // starts matching
	exec(`UPDATE _strata.follow_t SET state = 'z' WHERE id = 3`) // changes
	check("updates", 1, 2)
	exec(`DELETE FROM _strata.follow_t WHERE id = 4`)
	check("delete", 1, 3)
}
