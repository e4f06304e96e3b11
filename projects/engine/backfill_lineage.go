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

// backfillShares counts, from the catalog, the partitions each pipeline
// version computed (a partition's latest version's, when its attempts
// published more than once), most partitions first: aggregated in the
// database, so that a backfill of millions of cells costs a few rows here.
func (e *Engine) backfillShares(ctx context.Context, id string) ([]VersionShare, error) {
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT s, count(*) FROM (
		SELECT arg_max(snapshot, created_at) AS s FROM _strata.versions
		WHERE starts_with(run_id, ?) AND snapshot <> '' GROUP BY `+slotSQL+`) GROUP BY s`, id+":")
	if err != nil {
		return nil, fmt.Errorf("backfill %s: lineage: %w", id, err)
	}
	defer rows.Close()
	var out []VersionShare
	for rows.Next() {
		var v VersionShare
		if err := rows.Scan(&v.Snapshot, &v.Partitions); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b VersionShare) int {
		return cmp.Or(b.Partitions-a.Partitions, strings.Compare(a.Snapshot, b.Snapshot))
	})
	return out, rows.Err()
}

// pageLineage is the pipeline version that computed each of keys'
// partitions of the backfill, by slot id (see backfillShares); partitions
// that published nothing are absent. Only the keys' versions are read
// (keysFilter: by their range when the page is dense), and maybe
// a few more, which the caller's lookups drop.
func (e *Engine) pageLineage(ctx context.Context, id string, dense bool, keys []string) (map[string]string, error) {
	out := map[string]string{}
	if len(keys) == 0 {
		return out, nil
	}
	cond, args := keysFilter("partition", dense, keys)
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT `+slotSQL+` AS slot, arg_max(snapshot, created_at) FROM _strata.versions
		WHERE `+cond+` AND starts_with(run_id, ?) AND snapshot <> '' GROUP BY slot`, append(args, id+":")...)
	if err != nil {
		return nil, fmt.Errorf("backfill %s: lineage: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var r, s string
		if err := rows.Scan(&r, &s); err != nil {
			return nil, err
		}
		out[r] = s
	}
	return out, rows.Err()
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
