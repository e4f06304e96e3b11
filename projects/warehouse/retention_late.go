package warehouse

import "maps"

// A backfill's rewrite replaces a version of every partition it writes, and
// retention then drops the oldest: one more catalog DELETE in each of its
// write transactions, most of what a rewrite pass cost over a first pass
// (a DuckDB statement costs about half a millisecond whatever it deletes;
// 1.3x on 365 days of the small daily pipeline). So an output marked
// LateRetention leaves its partition's retention to a later transaction:
// the partition is remembered (w.late) and retention runs for all of them
// at once, in one catalog DELETE, when lateBatch have gathered (in a
// transaction that is writing anyway) and when the backfill ends (Sweep)
// or the warehouse closes.
//
// Until then the partition keeps one version more than retention allows,
// whole (catalog row and rows), so nothing reads differently: a retention
// victim is an old, non-current version either way. Retention is decided
// when it runs, from the partition's state then, so a version pinned or
// made current meanwhile is kept as it would have been. A crash forgets
// the list, not the versions: the backfill's resume puts its partitions
// back (RetainLate), and the next write of a partition applies retention
// to it as usual.

// lateBatch is how many partitions wait for retention before a write
// transaction applies it to them.
const lateBatch = 256

// retainLate records that (product, partition) waits for retention.
func (tx *writeTx) retainLate(product, partition string) {
	if tx.late == nil {
		tx.late = map[partKey]bool{}
	}
	tx.late[partKey{product, partition}] = true
}

// applyLate runs retention for every waiting partition (the writer's and
// this transaction's) when there are lateBatch of them or the transaction
// sweeps all; it runs before the transaction flushes.
func (tx *writeTx) applyLate() error {
	waiting := make(map[partKey]bool, len(tx.w.late)+len(tx.late))
	maps.Copy(waiting, tx.w.late)
	maps.Copy(waiting, tx.late)
	if len(waiting) == 0 || (len(waiting) < lateBatch && !tx.sweepAll) {
		return nil
	}
	for k := range waiting {
		st, err := tx.state(k.product, k.partition)
		if err != nil {
			return err
		}
		if err := tx.retain(k.product, k.partition, st); err != nil {
			return err
		}
	}
	tx.lateDone = true
	return nil
}

// keepLate makes a committed transaction's waiting partitions the writer's.
func (w *Warehouse) keepLate(tx *writeTx) {
	if tx.lateDone {
		clear(w.late)
		return
	}
	for k := range tx.late {
		w.late[k] = true
	}
}

// RetainLate puts partitions on the list that waits for retention: a
// backfill resumed or retried after a kill names those it wrote before,
// whose place on the list the kill lost, so that its end applies retention
// to them as to the ones it writes now.
func (w *Warehouse) RetainLate(parts []VersionRef) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range parts {
		w.late[partKey{r.Product, r.Partition}] = true
	}
}

// LateRetentions is how many partitions wait for retention.
func (w *Warehouse) LateRetentions() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.late)
}
