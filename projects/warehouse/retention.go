package warehouse

import (
	"fmt"
	"slices"
	"sort"
)

// keptVersion is one catalog row of a partition, as retention sees it.
type keptVersion struct {
	version int
	table   string
	current bool
	basedOn int // the current version it was planned to replace (0: none)
}

// retentionVictims returns the versions to delete: all but the newest keep
// ones and the current one. Versions may come in any order.
func retentionVictims(versions []keptVersion, keep int) []keptVersion {
	sorted := append([]keptVersion(nil), versions...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].version > sorted[j].version })
	var out []keptVersion
	for i, v := range sorted {
		if i < keep || v.current {
			continue
		}
		out = append(out, v)
	}
	return out
}

type partKey struct{ product, partition string }

// partState is what a write needs to know about one (product, partition):
// its kept versions (ascending), its current version (0: none), the last
// version number handed out and the highest one discarded (hasDiscarded: a
// _strata.discarded row exists).
//
// The next version is last+1. Retention never removes the newest version, so
// the newest kept version is the last one handed out unless Discard removed
// it; only then is a _strata.discarded row written. Publishing therefore
// writes no counter row, and a number is still never reused.
type partState struct {
	versions     []keptVersion
	current      int
	last         int
	discarded    int
	hasDiscarded bool
}

func (st *partState) clone() *partState {
	c := *st
	c.versions = slices.Clone(st.versions)
	return &c
}

// kept returns a kept version.
func (st *partState) kept(version int) (keptVersion, bool) {
	for _, v := range st.versions {
		if v.version == version {
			return v, true
		}
	}
	return keptVersion{}, false
}

// table returns the storage table of a kept version.
func (st *partState) table(version int) (string, bool) {
	for _, v := range st.versions {
		if v.version == version {
			return v.table, true
		}
	}
	return "", false
}

// apply adds one catalog row to the state: a kept version ("v"), the
// current version ("c", a version row flagged is_current) or the highest
// discarded number ("d").
func (st *partState) apply(kind string, n int, table *string, basedOn int) {
	switch kind {
	case "v":
		st.versions = append(st.versions, keptVersion{version: n, table: *table, basedOn: basedOn})
		st.last = max(st.last, n)
	case "c":
		st.current = n
	case "d":
		st.discarded, st.hasDiscarded = n, true
		st.last = max(st.last, n)
	}
}

func (st *partState) remove(version int) {
	st.versions = slices.DeleteFunc(st.versions, func(v keptVersion) bool { return v.version == version })
}

// state returns the transaction's view of a partition: its own copy of the
// writer's cached state, or the catalog's, read in one query.
func (tx *writeTx) state(product, partition string) (*partState, error) {
	k := partKey{product, partition}
	if st, ok := tx.parts[k]; ok {
		return st, nil
	}
	if st, ok := tx.w.parts[k]; ok {
		c := st.clone()
		tx.parts[k] = c
		tx.track(k, c)
		return c, nil
	}
	if !tx.w.complete[product] && !tx.w.uncached[product] {
		if err := tx.loadProduct(product); err != nil {
			return nil, err
		}
		if st, ok := tx.w.parts[k]; ok {
			c := st.clone()
			tx.parts[k] = c
			tx.track(k, c)
			return c, nil
		}
	}
	if tx.w.complete[product] {
		st := &partState{} // a new partition: a backfill's common case costs no query
		tx.parts[k] = st
		tx.track(k, st)
		return st, nil
	}
	rows, err := tx.query(`
		SELECT 'v', version, storage_table, based_on FROM _strata.versions WHERE product = $1 AND partition = $2
		UNION ALL SELECT 'c', version, NULL, 0 FROM _strata.versions WHERE product = $1 AND partition = $2 AND is_current
		UNION ALL SELECT 'd', max_version, NULL, 0 FROM _strata.discarded WHERE product = $1 AND partition = $2`,
		product, partition)
	if err != nil {
		return nil, fmt.Errorf("state of %s partition %s: %w", product, partition, err)
	}
	defer rows.Close()
	st := &partState{}
	for rows.Next() {
		var kind string
		var n, basedOn int
		var table *string
		if err := rows.Scan(&kind, &n, &table, &basedOn); err != nil {
			return nil, fmt.Errorf("state of %s partition %s: %w", product, partition, err)
		}
		st.apply(kind, n, table, basedOn)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("state of %s partition %s: %w", product, partition, err)
	}
	slices.SortFunc(st.versions, func(a, b keptVersion) int { return a.version - b.version })
	tx.parts[k] = st
	tx.track(k, st)
	return st, nil
}

// loadProduct reads the committed state of every partition of a product
// into the writer's cache in one query, and marks the product complete. This
// transaction has not touched the product yet (it asks only on a miss), so
// what it reads is the committed state. A product too large to cache stays
// incomplete and its partitions are read one by one.
func (tx *writeTx) loadProduct(product string) error {
	rows, err := tx.query(`
		SELECT partition, 'v', version, storage_table, based_on FROM _strata.versions WHERE product = $1
		UNION ALL SELECT partition, 'c', version, NULL, 0 FROM _strata.versions WHERE product = $1 AND is_current
		UNION ALL SELECT partition, 'd', max_version, NULL, 0 FROM _strata.discarded WHERE product = $1`, product)
	if err != nil {
		return fmt.Errorf("state of %s: %w", product, err)
	}
	defer rows.Close()
	states := map[string]*partState{}
	for rows.Next() {
		var partition, kind string
		var n, basedOn int
		var table *string
		if err := rows.Scan(&partition, &kind, &n, &table, &basedOn); err != nil {
			return fmt.Errorf("state of %s: %w", product, err)
		}
		st := states[partition]
		if st == nil {
			st = &partState{}
			states[partition] = st
		}
		st.apply(kind, n, table, basedOn)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("state of %s: %w", product, err)
	}
	if len(tx.w.parts)+len(states) > maxCachedPartitions/2 {
		tx.w.uncached[product] = true // read its partitions one by one from now on
		return nil
	}
	for partition, st := range states {
		k := partKey{product, partition}
		if _, ok := tx.w.parts[k]; !ok {
			slices.SortFunc(st.versions, func(a, b keptVersion) int { return a.version - b.version })
			tx.w.parts[k] = st
		}
	}
	tx.w.complete[product] = true
	return nil
}

// retain keeps the newest w.retention versions of (product, partition) and
// its current version, and deletes the rows and catalog rows of the others,
// inside the write transaction.
func (tx *writeTx) retain(product, partition string, st *partState) error {
	versions := make([]keptVersion, len(st.versions))
	for i, v := range st.versions {
		v.current = v.version == st.current
		versions[i] = v
	}
	victims := retentionVictims(versions, tx.w.retention)
	if len(victims) == 0 {
		return nil
	}
	protected, err := tx.protectedVersions(product, partition, st.current)
	if err != nil {
		return err
	}
	victims = slices.DeleteFunc(victims, func(v keptVersion) bool { return protected[v.version] })
	if len(victims) == 0 {
		return nil
	}
	nums := make([]int, len(victims))
	for i, v := range victims {
		nums[i] = v.version
	}
	if err := tx.deleteVersions(product, partition, st, nums); err != nil {
		return fmt.Errorf("retention of %s partition %s: %w", product, partition, err)
	}
	return nil
}

// deleteVersions deletes kept versions of one partition: their rows, their
// catalog rows, and storage tables left without any version, when the
// transaction flushes.
func (tx *writeTx) deleteVersions(product, partition string, st *partState, versions []int) error {
	touched := map[string]bool{}
	for _, v := range versions {
		table, ok := st.table(v)
		if !ok {
			return fmt.Errorf("version %d of %s partition %s is not kept", v, product, partition)
		}
		tx.deleteVersion(VersionRef{Product: product, Partition: partition, Version: v}, table)
		st.remove(v)
		touched[table] = true
	}
	// A table still holding a kept version of this partition is not empty;
	// only the others need counting before they may be dropped.
	for _, v := range st.versions {
		delete(touched, v.table)
	}
	tx.mayDrop(product, touched)
	return nil
}
