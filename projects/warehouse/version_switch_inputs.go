package warehouse

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
)

// A promote of what a pin owner holds (an environment's) switches only the
// partitions it rebuilt: an upstream whose output was identical to prod's
// is not staged at all (version_identical.go), so the owner's version of a
// downstream partition may have been computed from prod's version of that
// upstream. If prod rewrote the upstream meanwhile, the based_on check of
// the downstream partition alone would let the promote make it current
// next to an upstream it was never computed from. SwitchPinned checks, in
// the switching transaction, that every upstream version a switched
// version recorded in its lineage is either the one the same batch makes
// current or the current one now; otherwise the whole batch is refused.

// SwitchPinned is SwitchBatchChanged for the versions owner pinned, which
// releases owner's pins and also refuses the batch (a *SwitchConflictError,
// nothing switched) when an upstream version one of them read is neither
// switched to by the batch nor current.
func (w *Warehouse) SwitchPinned(ctx context.Context, batch string, switches []Switch, owner string) ([]Switch, error) {
	if owner == "" {
		return nil, fmt.Errorf("switch %s: no pin owner given", batch)
	}
	return w.switchBatch(ctx, batch, switches, owner, true)
}

// inputConflicts is one conflict per switched partition whose lineage names
// an upstream version that is neither switched to by switches nor current.
func (tx *writeTx) inputConflicts(switches []Switch) ([]SwitchConflict, error) {
	to := make(map[partKey]int, len(switches))
	for _, s := range switches {
		to[partKey{s.Product, s.Partition}] = s.To
	}
	lineage, err := tx.switchedLineage(switches)
	if err != nil {
		return nil, err
	}
	var conflicts []SwitchConflict
	for _, s := range switches {
		l, ok := lineage[partKey{s.Product, s.Partition}]
		if !ok {
			continue
		}
		var moved []SwitchConflict
		for _, up := range sortedKeys(l.upstream) {
			for _, part := range sortedKeys(l.upstream[up]) {
				read := l.upstream[up][part]
				gone := false
				if read == 0 { // written by the same run
					read = l.same[partKey{up, part}]
					// Not among the run's versions: retention dropped it
					// once a later run replaced it.
					gone = read == 0
				}
				k := partKey{up, part}
				if v, ok := to[k]; ok {
					if v != read {
						moved = append(moved, SwitchConflict{Input: up, InputPartition: part, InputRead: read, InputCurrent: v, InputPromoted: true, InputGone: gone})
					}
					continue
				}
				st, err := tx.state(up, part)
				if err != nil {
					return nil, err
				}
				if st.current != read {
					moved = append(moved, SwitchConflict{Input: up, InputPartition: part, InputRead: read, InputCurrent: st.current, InputGone: gone})
				}
			}
		}
		if len(moved) > 0 {
			st, err := tx.state(s.Product, s.Partition)
			if err != nil {
				return nil, err
			}
			kv, _ := st.kept(s.To)
			c := moved[0]
			c.Product, c.Partition, c.Want, c.Current, c.Expected = s.Product, s.Partition, s.To, st.current, kv.basedOn
			c.InputsMoved = len(moved)
			conflicts = append(conflicts, c)
		}
	}
	return conflicts, nil
}

// versionLineage is what one switched version read, and what its run wrote
// (the versions its lineage's 0 names).
type versionLineage struct {
	upstream map[string]map[string]int
	same     map[partKey]int
}

// switchedLineage reads the lineage of every version switches switch to, in
// two queries whatever their number.
func (tx *writeTx) switchedLineage(switches []Switch) (map[partKey]versionLineage, error) {
	want := make(map[partKey]int, len(switches))
	for _, s := range switches {
		if s.To != 0 {
			want[partKey{s.Product, s.Partition}] = s.To
		}
	}
	out := map[partKey]versionLineage{}
	if len(want) == 0 {
		return out, nil
	}
	var list []byte
	for k, v := range want {
		if len(list) > 0 {
			list = append(list, ", "...)
		}
		list = fmt.Appendf(list, "(%s, %s, %d)", quoteLiteral(k.product), quoteLiteral(k.partition), v)
	}
	sel := `FROM _strata.versions v JOIN (VALUES ` + string(list) + `) AS s(p, q, n) ON v.product = s.p AND v.partition = s.q AND v.version = s.n`
	rows, err := tx.conn.QueryContext(tx.ctx, `SELECT v.product, v.partition, v.run_id, v.upstream::VARCHAR `+sel)
	if err != nil {
		return nil, fmt.Errorf("lineage of the switched versions: %w", err)
	}
	runs := map[partKey]string{}
	for rows.Next() {
		var k partKey
		var run, up string
		if err := rows.Scan(&k.product, &k.partition, &run, &up); err != nil {
			rows.Close()
			return nil, err
		}
		var l versionLineage
		if err := json.Unmarshal([]byte(up), &l.upstream); err != nil {
			rows.Close()
			return nil, fmt.Errorf("%s partition %s version %d: upstream %q: %w", k.product, k.partition, want[k], up, err)
		}
		out[k] = l
		runs[k] = run
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// What the same runs wrote, for the lineages' 0s.
	rows, err = tx.conn.QueryContext(tx.ctx, `SELECT w.run_id, w.product, w.partition, w.version FROM _strata.versions w
		WHERE w.run_id IN (SELECT v.run_id `+sel+`)`)
	if err != nil {
		return nil, fmt.Errorf("versions of the switched versions' runs: %w", err)
	}
	byRun := map[string]map[partKey]int{}
	for rows.Next() {
		var run string
		var k partKey
		var v int
		if err := rows.Scan(&run, &k.product, &k.partition, &v); err != nil {
			rows.Close()
			return nil, err
		}
		if byRun[run] == nil {
			byRun[run] = map[partKey]int{}
		}
		byRun[run][k] = v
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, l := range out {
		l.same = byRun[runs[k]]
		out[k] = l
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mergeConflicts is the error of a batch refused by the compare-and-set
// (err, nil when it passed) and/or by moved upstreams: one
// *SwitchConflictError naming each partition once, the compare-and-set's
// conflict first.
func mergeConflicts(err error, moved []SwitchConflict) error {
	if len(moved) == 0 {
		return err
	}
	var all []SwitchConflict
	if err != nil {
		sce, ok := err.(*SwitchConflictError)
		if !ok {
			return err
		}
		all = sce.Conflicts
	}
	named := map[partKey]bool{}
	for _, c := range all {
		named[partKey{c.Product, c.Partition}] = true
	}
	for _, c := range moved {
		if !named[partKey{c.Product, c.Partition}] {
			all = append(all, c)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Product != all[j].Product {
			return all[i].Product < all[j].Product
		}
		return all[i].Partition < all[j].Partition
	})
	return &SwitchConflictError{Conflicts: all}
}
