package warehouse

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// When retention or a discard drops a version, its catalog row goes in the
// same transaction, but its rows stay in their storage table for a while as
// orphans: deleting them costs a statement per storage table (a scan of the
// table, about as much as the publish's own append), and a rewrite pass
// drops one version of every partition of every product it writes. So the
// writer remembers the orphans (w.orphans) and deletes them in batches:
// within a transaction that is writing anyway, once a table has sweepBatch
// of them; and all of them when a backfill ends (Sweep) and when the
// warehouse closes.
//
// No reader ever sees an orphan: every read finds rows through the catalog
// (the product views join _strata.current; reads by version name the
// partition and version, or the catalog's partitions of it: diff_side.go),
// and a version number is never handed out again in its partition, so an
// orphan's (partition, version) never names live rows.
//
// A crash loses the writer's list, not the orphans: Open finds storage
// tables holding more rows than the catalog says they should and deletes
// the rows no version owns (sweepAtOpen).

// sweepBatch is how many orphaned versions a storage table gathers before a
// write transaction deletes their rows.
const sweepBatch = 256

// orphan records that the rows of r in table belong to no version any more.
func (tx *writeTx) orphan(table string, r VersionRef) {
	refs := tx.orphansOf(table)
	tx.orphans[table] = append(refs, r)
}

// orphansOf is the transaction's list of a table's orphans: its own copy of
// the writer's, so that a rollback leaves the writer's as it was.
func (tx *writeTx) orphansOf(table string) []VersionRef {
	if tx.orphans == nil {
		tx.orphans = map[string][]VersionRef{}
	}
	refs, ok := tx.orphans[table]
	if !ok {
		refs = slices.Clone(tx.w.orphans[table])
		tx.orphans[table] = refs
	}
	return refs
}

// forgetOrphans drops a table's orphans with the table itself.
func (tx *writeTx) forgetOrphans(table string) {
	tx.orphansOf(table)
	tx.orphans[table] = nil
}

// sweep deletes the rows of the orphans of every table that has gathered
// sweepBatch of them, or of every table when the transaction sweeps all.
func (tx *writeTx) sweep() error {
	tables := make([]string, 0, len(tx.w.orphans)+len(tx.orphans))
	for t := range tx.w.orphans {
		tables = append(tables, t)
	}
	for t := range tx.orphans {
		if _, ok := tx.w.orphans[t]; !ok {
			tables = append(tables, t)
		}
	}
	sort.Strings(tables)
	for _, t := range tables {
		n := len(tx.w.orphans[t])
		if refs, ok := tx.orphans[t]; ok {
			n = len(refs)
		}
		if n == 0 || (n < sweepBatch && !tx.sweepAll) {
			continue
		}
		refs := tx.orphansOf(t)
		if err := tx.deleteRefs(qualified(t), flushRowsSQL(t), refs, false); err != nil {
			return fmt.Errorf("delete rows of %d dropped versions from %s: %w", len(refs), t, err)
		}
		tx.orphans[t] = nil
	}
	return nil
}

// flushRowsSQL deletes rows of a storage table by (partition, version).
func flushRowsSQL(table string) string {
	return fmt.Sprintf(`DELETE FROM %s AS t USING %s($1) AS s WHERE t.%s = s.s_partition AND t.%s = s.s_version`,
		qualified(table), tableSourceFunc, colPartition, colVersion)
}

// keepOrphans makes a committed transaction's orphan lists the writer's.
func (w *Warehouse) keepOrphans(tx *writeTx) {
	for t, refs := range tx.orphans {
		if len(refs) == 0 {
			delete(w.orphans, t)
		} else {
			w.orphans[t] = refs
		}
	}
}

// Orphans is how many dropped versions' rows are still waiting to be
// deleted.
func (w *Warehouse) Orphans() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, refs := range w.orphans {
		n += len(refs)
	}
	return n
}

// Sweep applies the retention that waits (retention_late.go) and deletes
// the rows of every version retention or a discard dropped that are still
// in their storage tables, in one transaction. A backfill
// calls it when it ends, so that a rewrite leaves no more data behind than
// it keeps; it costs nothing when there are none (on a lake, the
// maintenance of lake_maintenance.go follows).
func (w *Warehouse) Sweep(ctx context.Context) error {
	if w.readOnly {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.sweepAllLocked(ctx); err != nil {
		return err
	}
	// On a lake the deleted rows leave the disk too (lake_maintenance.go).
	_, err := w.maintainLake(ctx)
	return err
}

// sweepAllLocked is Sweep with w.mu held.
func (w *Warehouse) sweepAllLocked(ctx context.Context) error {
	if len(w.orphans) == 0 && len(w.late) == 0 {
		return nil
	}
	if err := w.writable(ctx); err != nil {
		return err
	}
	if err := w.commitGroup([]*writeReq{{ctx: ctx, fn: func(tx *writeTx) error {
		tx.sweepAll = true
		return nil
	}}}); err != nil {
		return fmt.Errorf("sweep dropped versions' rows: %w", err)
	}
	return nil
}

// sweepAtOpen deletes the orphans a crash left (the writer's list died with
// it): a storage table holding more rows than its versions' row counts add
// up to has rows no version owns. Counting every table is one query; the
// anti-join DELETE runs only for such a table.
func (w *Warehouse) sweepAtOpen(ctx context.Context) error {
	var counts []string
	for _, ps := range w.storage {
		for _, t := range ps.tables {
			counts = append(counts, fmt.Sprintf(`SELECT %[1]s AS t, (SELECT count(*) FROM %[2]s) -
				coalesce((SELECT sum(row_count) FROM _strata.versions WHERE storage_table = %[1]s), 0) AS stray`, quoteLiteral(t.name), qualified(t.name)))
		}
	}
	if len(counts) == 0 {
		return nil
	}
	rows, err := w.db.QueryContext(ctx, `SELECT t FROM (`+strings.Join(counts, "\nUNION ALL\n")+`) WHERE stray <> 0 ORDER BY t`)
	if err != nil {
		return fmt.Errorf("count the storage tables' rows: %w", err)
	}
	var stray []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		stray = append(stray, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(stray) == 0 {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.commitGroup([]*writeReq{{ctx: ctx, fn: func(tx *writeTx) error {
		for _, t := range stray {
			err := tx.exec(`DELETE FROM ` + qualified(t) + ` AS t WHERE NOT EXISTS (SELECT 1 FROM _strata.versions AS v
				WHERE v.storage_table = ` + quoteLiteral(t) + ` AND v.partition = t.` + colPartition + ` AND v.version = t.` + colVersion + `)`)
			if err != nil {
				return fmt.Errorf("delete rows no version owns from %s: %w", t, err)
			}
		}
		return nil
	}}})
}
