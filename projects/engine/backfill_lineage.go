package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// VersionShare is one pipeline version that computed partitions of a
// backfill, and how many (rollups included). A backfill computes with one
// version, unless `retry --use-current-code` moved it to the current code
// part way: then the partitions that had succeeded keep the versions the
// old code computed, and the status must say so rather than name only the
// new one.
type VersionShare struct {
	Snapshot   string `json:"snapshot"`
	Partitions int    `json:"partitions"`
}

// backfillLineage reads, from the catalog, the pipeline version that
// computed each partition of the backfill, by its slot id (its latest
// version's, when its attempts published more than once); partitions that
// published nothing are absent. Every status read asks (the UI polls), so
// it goes through the warehouse's VersionsOfRuns, which on a lake reads
// only what changed since the last read rather than every version kept.
func (e *Engine) backfillLineage(ctx context.Context, id string) (map[string]string, error) {
	vs, err := e.wh.VersionsOfRuns(ctx, id+":")
	if err != nil {
		return nil, fmt.Errorf("backfill %s: lineage: %w", id, err)
	}
	return lineageOf(vs), nil
}

// shares counts the runs of each pipeline version, most partitions first.
func shares(lineage map[string]string) []VersionShare {
	n := map[string]int{}
	for _, s := range lineage {
		n[s]++
	}
	out := make([]VersionShare, 0, len(n))
	for s, c := range n {
		out = append(out, VersionShare{Snapshot: s, Partitions: c})
	}
	slices.SortFunc(out, func(a, b VersionShare) int {
		return cmp.Or(b.Partitions-a.Partitions, strings.Compare(a.Snapshot, b.Snapshot))
	})
	return out
}

// RanString says which pipeline versions computed the backfill's
// partitions when that is not just the one it runs: "" otherwise.
func (st *BackfillStatus) RanString() string {
	if len(st.Ran) == 0 || (len(st.Ran) == 1 && st.Ran[0].Snapshot == st.Snapshot) {
		return ""
	}
	parts := make([]string, len(st.Ran))
	for i, r := range st.Ran {
		parts[i] = fmt.Sprintf("%s (%d partitions)", shortHash(r.Snapshot), r.Partitions)
	}
	return fmt.Sprintf("its partitions were computed by %d pipeline versions: %s", len(st.Ran), strings.Join(parts, ", "))
}
