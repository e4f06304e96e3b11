package warehouse

import (
	"encoding/json"
	"fmt"
	"maps"
)

// An environment (projects/envs) holds a pointer only where its data
// differs from prod's. A run into it recomputes blocks its change does not
// touch (a --reprocess all backfill recomputes every block), and each of
// their outputs is, row for row, the version the environment already reads.
// Staging it again would cost the rows of a copy and a pointer that the
// diff then calls unchanged. So an output that asks (Output.ReuseFor) is
// compared, by content hash and row count, with the version its owner reads
// (ChosenVersion: its newest pinned one, else the current one); when they
// are equal nothing is written and the run is answered with that version.
//
// The lineage of the other outputs of the same publish that read it in
// memory ("version 0: written by the same run", StoredVersion.Upstream) is
// rewritten to that version, since no version of this run will exist. A
// run's blocks that read each other in memory publish together (a group),
// so a reference never spans two publishes.

// identicalVersions finds, per index of outs, the version to reuse in place
// of writing the output, and records the owner's code credits of those
// reused by other code than wrote them (version_credit.go).
func (tx *writeTx) identicalVersions(outs []preparedOutput) (map[int]Version, error) {
	var found map[int]Version
	var credits []credit
	for i := range outs {
		o := &outs[i]
		if o.ReuseFor == "" || o.hash == "" || o.State != nil {
			// A block's state is stored with its version: an output that
			// carries one is written, so the state it ends with is kept.
			continue
		}
		chosen, args := ChosenVersion(o.ReuseFor)
		args = append(args, o.Product, o.Partition)
		rows, err := tx.query(`SELECT v.version, coalesce(v.content_hash, ''), v.row_count, v.storage_table, v.is_current, v.created_at, coalesce(v.based_on, 0), v.code_hash
			FROM _strata.versions v WHERE `+chosen+` AND v.product = ? AND v.partition = ?`, args...)
		if err != nil {
			return nil, fmt.Errorf("output %d (%s, partition %s): the version %s reads: %w", i, o.Product, o.Partition, o.ReuseFor, err)
		}
		var v Version
		var hash, code string
		var basedOn int
		ok := false
		for rows.Next() {
			if err := rows.Scan(&v.Version, &hash, &v.Rows, &v.Table, &v.Current, &v.CreatedAt, &basedOn, &code); err != nil {
				rows.Close()
				return nil, err
			}
			ok = true
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
		if !ok || hash != o.hash || v.Rows != int64(o.Table.Len()) {
			continue
		}
		if !v.Current {
			// The owner's own staged version: reused only if it is based on
			// the version this output would be (prod's current one now).
			// One built over a version prod has replaced since would carry
			// that stale base into the promote's compare-and-set, which
			// refuses it: the rebuild that re-bases it must be written.
			st, err := tx.state(o.Product, o.Partition)
			if err != nil {
				return nil, err
			}
			want := st.current
			if o.IfCurrent {
				want = o.BasedOn
			}
			if basedOn != want {
				continue
			}
		}
		v.Product, v.Partition, v.CreatedAt, v.Reused = o.Product, o.Partition, v.CreatedAt.UTC(), true
		if found == nil {
			found = map[int]Version{}
		}
		found[i] = v
		if o.CodeHash != code {
			credits = append(credits, credit{owner: o.ReuseFor, product: o.Product, partition: o.Partition, version: v.Version, hash: o.CodeHash})
		}
	}
	return found, tx.writeCredits(credits)
}

// pointLineageAt rewrites, in the outputs of the same run, a read of a
// reused output's partition "in this run" (version 0) to the version
// reused.
func pointLineageAt(outs []preparedOutput, reused map[int]Version) error {
	for i := range outs {
		o := &outs[i]
		if _, skip := reused[i]; skip {
			continue
		}
		var up map[string]map[string]int
		for j, r := range reused {
			if outs[j].RunID != o.RunID {
				continue
			}
			if v, ok := o.Upstream[r.Product][r.Partition]; !ok || v != 0 {
				continue
			}
			if up == nil {
				up = make(map[string]map[string]int, len(o.Upstream))
				for p, parts := range o.Upstream {
					up[p] = maps.Clone(parts)
				}
			}
			up[r.Product][r.Partition] = r.Version
		}
		if up == nil {
			continue
		}
		b, err := json.Marshal(up)
		if err != nil {
			return fmt.Errorf("output %d (%s, partition %s): upstream: %w", i, o.Product, o.Partition, err)
		}
		o.upstream = string(b)
	}
	return nil
}
