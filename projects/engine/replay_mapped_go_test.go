package engine

import (
	"context"
	"testing"
)

// TestReplayGoMappedRead: a Go block reading the cells of its day of a
// day × region product (ctx.Product with its day's key) is replayed on the
// cells and versions it read: unchanged, though one cell was rewritten
// since.
func TestReplayGoMappedRead(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for k, v := range oldCellFiles {
		files[k] = v
	}
	e := newEnv(t, false, files)
	ctx := context.Background()
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02"}); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	e.mustSucceed(e.run("godaily", "2024-01-02"))
	// 2024-01-02|eu rewritten with another row.
	writeFiles(t, e.dir, map[string]string{"blocks/load.sql": "SELECT $partition_key AS k, left($partition_key, 10) AS day UNION ALL SELECT 'x', 'y'"})
	e.reload()
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02", Where: map[string][]string{"region": {"eu"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
		t.Fatalf("rewrite: %s %s", st.State, st.Message)
	}
	rp, err := e.eng.NewReplayer(ctx, "godaily", ReplayOptions{Engine: EngineInterp})
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	if res := rp.Replay(ctx, ReplayTarget{Interval: "day", Partition: "2024-01-02"}); res.Status != ReplayUnchanged {
		t.Fatalf("replay of godaily 2024-01-02: %s %+v; want unchanged", res.Status, res.Blocks)
	}
}
