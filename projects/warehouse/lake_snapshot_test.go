package warehouse

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
)

// Each version of a partition on a lake records the DuckLake snapshot it
// became current in, and reading the product at that snapshot (AT
// (VERSION => n), as a plain duckdb would) gives exactly that version's
// rows; a rollback makes the rollback's snapshot the version's newest.
func TestLakeVersionsReadAtTheirSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Retention: 5, Lake: fileLake(t, dir)})
	defer wh.Close()
	ids := func(n, base int64) *sdk.Table {
		rows := make([][]any, n)
		for i := range rows {
			rows[i] = []any{base + int64(i)}
		}
		return table(t, []sdk.Field{sdk.Int64("id")}, rows...)
	}
	want := map[int]string{}
	for v := 1; v <= 3; v++ {
		publish(t, wh, "m", "2024-03-10", ids(int64(v), int64(v*100)))
		publish(t, wh, "m", "2024-03-11", ids(2, int64(v*1000)))
		want[v] = strings.ReplaceAll(fmt.Sprint(idList(v, v*100)), " ", ", ")
	}
	readAt := func(snap int64) string {
		var got string
		if err := wh.DB().QueryRowContext(ctx, fmt.Sprintf(`SELECT list(id ORDER BY id)::VARCHAR FROM m AT (VERSION => %d) WHERE _partition = '2024-03-10'`, snap)).Scan(&got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	check := func(when string) map[int]int64 {
		parts, err := wh.Partitions(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		snaps := map[int]int64{}
		for _, v := range parts[0].Versions {
			if v.LakeSnapshot <= 0 {
				t.Fatalf("%s: version %d of %s has no lake snapshot: %+v", when, v.Version, parts[0].Key, parts[0].Versions)
			}
			snaps[v.Version] = v.LakeSnapshot
			if got := readAt(v.LakeSnapshot); got != want[v.Version] {
				t.Fatalf("%s: at snapshot %d (version %d) the partition reads %s, want %s", when, v.LakeSnapshot, v.Version, got, want[v.Version])
			}
		}
		if len(snaps) != 3 || snaps[1] >= snaps[2] || snaps[2] >= snaps[3] {
			t.Fatalf("%s: snapshots by version %v, want 3 rising", when, snaps)
		}
		return snaps
	}
	before := check("after 3 publishes")
	if err := wh.Rollback(ctx, "m", "2024-03-10", 1); err != nil {
		t.Fatal(err)
	}
	parts, err := wh.Partitions(ctx, "m")
	if err != nil {
		t.Fatal(err)
	}
	v1 := parts[0].Versions[0]
	if v1.LakeSnapshot <= before[3] || readAt(v1.LakeSnapshot) != want[1] {
		t.Fatalf("after a rollback to 1, version 1's snapshot is %d (before %v), reading %s", v1.LakeSnapshot, before, readAt(v1.LakeSnapshot))
	}
	t.Logf("snapshots by version %v; version 1 after the rollback: %d", before, v1.LakeSnapshot)
}

func idList(n, base int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = base + i
	}
	return out
}
