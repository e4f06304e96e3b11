package warehouse

import (
	"context"
	"path/filepath"
	"testing"
)

func stateOut(partition, last string) Output {
	o := out("src", partition, nil)
	o.State = map[string]string{"last_id": last}
	return o
}

// The state is the one of the latest current version: a staged version's
// does not count until it is promoted; a failed publish stores none.
func TestStateFollowsTheCurrentVersion(t *testing.T) {
	wh := openTemp(t)
	ctx := context.Background()
	get := func() string {
		t.Helper()
		st, err := wh.State(ctx, "src")
		if err != nil {
			t.Fatal(err)
		}
		return st["last_id"]
	}
	if get() != "" {
		t.Fatal("a state before any publish")
	}
	o := stateOut("2024-03-10", "3")
	o.Table = ids(t, 1, 2, 3)
	if _, err := wh.Publish(ctx, []Output{o}); err != nil {
		t.Fatal(err)
	}
	if get() != "3" {
		t.Fatalf("state %q, want 3", get())
	}
	s := stateOut("2024-03-11", "9")
	s.Table = ids(t, 9)
	vs, err := wh.Stage(ctx, []Output{s})
	if err != nil {
		t.Fatal(err)
	}
	if get() != "3" {
		t.Fatalf("state after a stage %q, want 3 (staged is not current)", get())
	}
	// A publish that fails (a second output of the same partition) stores nothing.
	bad := stateOut("2024-03-12", "100")
	bad.Table = ids(t, 100)
	if _, err := wh.Publish(ctx, []Output{bad, bad}); err == nil {
		t.Fatal("duplicate outputs: no error")
	}
	if get() != "3" {
		t.Fatalf("state after a failed publish %q, want 3", get())
	}
	if err := wh.Promote(ctx, []VersionRef{vs[0].Ref()}, ""); err != nil {
		t.Fatal(err)
	}
	if get() != "9" {
		t.Fatalf("state after the promote %q, want 9", get())
	}
	st, err := wh.VersionState(ctx, VersionRef{Product: "src", Partition: "2024-03-10", Version: 1})
	if err != nil || st["last_id"] != "3" {
		t.Fatalf("version state %v %v", st, err)
	}
}

// A warehouse written before the state and the export ledger existed
// opens with both, empty.
func TestOldWarehouseGainsStateAndLedger(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh := openAt(t, path, Options{})
	publish(t, wh, "src", "2024-03-10", ids(t, 1))
	if _, err := wh.DB().Exec(`DROP TABLE _strata.version_state; DROP TABLE _strata.exports`); err != nil {
		t.Fatal(err)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}
	wh = openAt(t, path, Options{})
	defer wh.Close()
	ctx := context.Background()
	if st, err := wh.State(ctx, "src"); err != nil || st != nil {
		t.Fatalf("state %v %v, want none", st, err)
	}
	ex, err := wh.BeginExport(ctx, "ship", "2024-03-10", "run-1/ship")
	if err != nil || ex.Key.Version != 1 || ex.Done() {
		t.Fatalf("begin %+v %v", ex, err)
	}
	again, err := wh.BeginExport(ctx, "ship", "2024-03-10", "run-1/ship")
	if err != nil || again.Key != ex.Key {
		t.Fatalf("begin again %+v %v, want the same key %v", again, err, ex.Key)
	}
	if err := wh.CompleteExport(ctx, ex.Key); err != nil {
		t.Fatal(err)
	}
	other, err := wh.BeginExport(ctx, "ship", "2024-03-10", "run-2/ship")
	if err != nil || other.Key.Version != 2 {
		t.Fatalf("another run's export %+v %v, want version 2", other, err)
	}
}
