package warehouse

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// A write transaction does not write its catalog changes one statement per
// output: a DuckDB statement costs about a millisecond of CPU whatever it
// does (planning, allocation, locks), and a group of publishes used to issue
// one catalog INSERT, one flag UPDATE and two retention DELETEs per output.
// Instead the transaction records them here as it goes and flush writes them
// just before COMMIT, inside the same transaction, in a fixed handful of
// statements: one INSERT of every new version row, one UPDATE of every
// flag that changed, one DELETE on the catalog, and one each for pins (the
// rows of the versions retention or a discard drops are deleted later, in
// batches: orphan_sweep.go). Readers see
// exactly what they saw before (nothing until COMMIT, everything after), and
// a crash before COMMIT still leaves nothing.
//
// A few rows are named in the statement's WHERE clause (cheapest, as
// measured); many come through strata_rows (table_source.go) into a
// statement whose text never changes, prepared once per writer connection.
// A single new version is inserted by the prepared one-row INSERT.
//
// The transaction's partition states (tx.parts) stay the truth while
// changes are pending; orig is what the catalog rows say (as of the last
// flush), so that flush writes only the flags that differ.
type catalogBatch struct {
	inserts []pendingVersion
	deletes []VersionRef // committed versions whose catalog rows go
	pins    []pinRow
	unpins  []VersionRef               // deleted versions of guarded partitions: their pins go
	drop    map[string]map[string]bool // product -> storage tables that may be empty now
	orig    map[partKey]int            // the current version the catalog's flags say
}

// pendingVersion is a version row to insert; is_current is decided at
// flush, from the partition's state then.
type pendingVersion struct {
	o       *preparedOutput
	version int
	table   string
	rows    int64
	created time.Time
	basedOn int
}

type pinRow struct {
	owner string
	ref   VersionRef
	// supersedes: the pin replaces the owner's older pins of the partition
	// (an environment points at its newest version only).
	supersedes bool
}

// track records the catalog's current version of a partition the
// transaction reads for the first time.
func (tx *writeTx) track(k partKey, st *partState) {
	if tx.batch.orig == nil {
		tx.batch.orig = map[partKey]int{}
	}
	if _, ok := tx.batch.orig[k]; !ok {
		tx.batch.orig[k] = st.current
	}
}

// pendingInsert is the index of a version this transaction inserts and has
// not flushed yet (-1: none).
func (b *catalogBatch) pendingInsert(r VersionRef) int {
	return slices.IndexFunc(b.inserts, func(p pendingVersion) bool {
		return p.version == r.Version && p.o.Product == r.Product && p.o.Partition == r.Partition
	})
}

// deleteVersion records that a kept version of a partition goes: its
// catalog row (or its pending insert) and its pins when the transaction
// flushes, its rows when the table is swept (orphan_sweep.go).
func (tx *writeTx) deleteVersion(r VersionRef, table string) {
	b := &tx.batch
	tx.orphan(table, r) // its rows are inserted at the latest by the flush before the sweep (table_batch.go)
	if i := b.pendingInsert(r); i >= 0 {
		b.inserts = slices.Delete(b.inserts, i, i+1)
	} else {
		b.deletes = append(b.deletes, r)
	}
	if tx.w.guarded[partKey{r.Product, r.Partition}] {
		b.unpins = append(b.unpins, r)
	}
}

// mayDrop records storage tables of a product that may hold no version any
// more; flush drops those that hold none.
func (tx *writeTx) mayDrop(product string, tables map[string]bool) {
	if len(tables) == 0 {
		return
	}
	b := &tx.batch
	if b.drop == nil {
		b.drop = map[string]map[string]bool{}
	}
	if b.drop[product] == nil {
		b.drop[product] = map[string]bool{}
	}
	for t := range tables {
		b.drop[product][t] = true
	}
}

// pendingPins are the versions of a partition pinned in this transaction
// and not flushed yet.
func (b *catalogBatch) pendingPins(product, partition string) []int {
	var out []int
	for _, p := range b.pins {
		if p.ref.Product == product && p.ref.Partition == partition {
			out = append(out, p.ref.Version)
		}
	}
	return out
}

// The batch statements. Their source columns are named apart from the
// target's so that no condition can read the wrong side.
const (
	flushInsertSQL = `INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
			upstream, row_count, schema, created_at, storage_table, is_current, ever_current, content_hash, snapshot, based_on, inputs)
		SELECT s_product, s_partition, s_start, s_end, s_version, s_run, s_code, s_upstream::JSON, s_rows, s_schema::JSON,
			s_created, s_table, s_current, s_current, s_hash, s_snapshot, s_based_on, nullif(s_inputs, '')::JSON FROM ` + tableSourceFunc + `($1)`
	flushFlagsSQL = `UPDATE _strata.versions AS v SET is_current = s.s_current, ever_current = v.ever_current OR s.s_current FROM ` + tableSourceFunc + `($1) AS s
		WHERE v.product = s.s_product AND v.partition = s.s_partition AND v.version = s.s_version`
	flushDeleteSQL = `DELETE FROM _strata.versions AS v USING ` + tableSourceFunc + `($1) AS s
		WHERE v.product = s.s_product AND v.partition = s.s_partition AND v.version = s.s_version`
	flushPinSQL = `INSERT INTO _strata.pins (owner, product, partition, version)
		SELECT s_owner, s_product, s_partition, s_version FROM ` + tableSourceFunc + `($1)`
	flushUnpinSQL = `DELETE FROM _strata.pins AS p USING ` + tableSourceFunc + `($1) AS s
		WHERE p.product = s.s_product AND p.partition = s.s_partition AND p.version = s.s_version`
	flushSupersedeSQL = `DELETE FROM _strata.pins AS p USING ` + tableSourceFunc + `($1) AS s
		WHERE p.owner = s.s_owner AND p.product = s.s_product AND p.partition = s.s_partition AND p.version < s.s_version`
)

// flush writes every pending catalog change in the transaction. It may run
// more than once (before an error message reads the catalog, say); what it
// wrote is no longer pending.
func (tx *writeTx) flush() error {
	if err := tx.flushRows(); err != nil {
		return err
	}
	b := &tx.batch
	if len(b.inserts) > 0 || len(b.deletes) > 0 {
		tx.catalogChanged = true
	}
	switch {
	case len(b.inserts) == 1:
		p := b.inserts[0]
		if err := tx.exec(insertVersionSQL, p.values(tx.isCurrent(p))...); err != nil {
			return fmt.Errorf("record version %d of %s partition %s: %w", p.version, p.o.Product, p.o.Partition, err)
		}
	case len(b.inserts) > 1:
		if err := tx.execRows(flushInsertSQL, tx.insertRows()); err != nil {
			return fmt.Errorf("record %d versions: %w", len(b.inserts), err)
		}
	}
	if flags := tx.flagChanges(); len(flags) > 0 {
		tx.catalogChanged = true
		if err := tx.writeFlags(flags); err != nil {
			return fmt.Errorf("switch %d current flags: %w", len(flags), err)
		}
	}
	if err := tx.deleteRefs(`_strata.versions`, flushDeleteSQL, b.deletes, true); err != nil {
		return fmt.Errorf("delete catalog rows of %d versions: %w", len(b.deletes), err)
	}
	var newest []pinRow
	for _, p := range b.pins {
		if p.supersedes {
			newest = append(newest, p)
		}
	}
	if len(newest) > 0 {
		if err := tx.execRows(flushSupersedeSQL, pinRows(newest)); err != nil {
			return fmt.Errorf("release pins superseded by %d versions: %w", len(newest), err)
		}
	}
	if len(b.pins) > 0 {
		if err := tx.execRows(flushPinSQL, pinRows(b.pins)); err != nil {
			return fmt.Errorf("pin %d versions: %w", len(b.pins), err)
		}
	}
	if err := tx.deleteRefs(`_strata.pins`, flushUnpinSQL, b.unpins, true); err != nil {
		return fmt.Errorf("delete pins of %d versions: %w", len(b.unpins), err)
	}
	drop := b.drop
	for k, st := range tx.parts {
		if b.orig[k] != st.current {
			tx.noteCurrent(k, st.current)
		}
		b.orig[k] = st.current
	}
	tx.batch = catalogBatch{orig: b.orig}
	products := make([]string, 0, len(drop))
	for p := range drop {
		products = append(products, p)
	}
	sort.Strings(products)
	for _, p := range products {
		if err := tx.dropEmptyTables(p, drop[p]); err != nil {
			return err
		}
	}
	return tx.sweep()
}

// maxListed is the most rows a batch UPDATE or DELETE names in its WHERE
// clause; more come through strata_rows and a join. Measured on a catalog
// of 9,000 versions: a listed statement of a few rows costs about a third
// of the join's fixed cost, but its text must be parsed and each row it
// scans tests every term. A single row goes through a prepared statement.
const maxListed = 64

// deleteRefs deletes the rows of a catalog table (one with product,
// partition and version columns; !catalog: a storage table's _partition and
// _version) naming refs: one by a prepared statement, a few listed, many
// through joinSQL.
func (tx *writeTx) deleteRefs(table, joinSQL string, refs []VersionRef, catalog bool) error {
	switch {
	case len(refs) == 0:
		return nil
	case len(refs) == 1 && catalog:
		r := refs[0]
		return tx.exec(`DELETE FROM `+table+` WHERE product = ? AND partition = ? AND version = ?`, r.Product, r.Partition, r.Version)
	case len(refs) == 1:
		r := refs[0]
		return tx.exec(`DELETE FROM `+table+` WHERE `+colPartition+` = ? AND `+colVersion+` = ?`, r.Partition, r.Version)
	case len(refs) <= maxListed:
		return tx.exec(`DELETE FROM ` + table + ` WHERE ` + refList(refs, catalog))
	}
	return tx.execRows(joinSQL, refRows(refs, catalog))
}

// flagChange is one is_current flag to write.
type flagChange struct {
	ref     VersionRef
	current bool
}

// writeFlags writes flags in one UPDATE: listed, each row's new flag
// whether it is among those set, or through strata_rows for many.
func (tx *writeTx) writeFlags(flags []flagChange) error {
	if len(flags) == 1 {
		f := flags[0]
		return tx.exec(`UPDATE _strata.versions SET is_current = $1, ever_current = ever_current OR $1 WHERE product = $2 AND partition = $3 AND version = $4`,
			f.current, f.ref.Product, f.ref.Partition, f.ref.Version)
	}
	if len(flags) > maxListed {
		var c batchColumns
		for _, f := range flags {
			c.row()
			c.str("s_product", f.ref.Product)
			c.str("s_partition", f.ref.Partition)
			c.int("s_version", int64(f.ref.Version))
			c.bool("s_current", f.current)
		}
		return tx.execRows(flushFlagsSQL, c.table())
	}
	var all, set []VersionRef
	for _, f := range flags {
		all = append(all, f.ref)
		if f.current {
			set = append(set, f.ref)
		}
	}
	value := "false"
	if len(set) > 0 {
		value = "(" + refList(set, true) + ")"
	}
	return tx.exec(`UPDATE _strata.versions SET is_current = ` + value + `, ever_current = ever_current OR ` + value + ` WHERE ` + refList(all, true))
}

// refList is a condition true for the rows of refs: a catalog table's
// (product, partition, version) or a storage table's (_partition, _version).
func refList(refs []VersionRef, catalog bool) string {
	var b strings.Builder
	for i, r := range refs {
		if i > 0 {
			b.WriteString(" OR ")
		}
		if catalog {
			fmt.Fprintf(&b, "(product = %s AND partition = %s AND version = %d)", quoteLiteral(r.Product), quoteLiteral(r.Partition), r.Version)
		} else {
			fmt.Fprintf(&b, "(%s = %s AND %s = %d)", colPartition, quoteLiteral(r.Partition), colVersion, r.Version)
		}
	}
	return b.String()
}

// execRows runs a batch statement over rows, handed over through
// strata_rows.
func (tx *writeTx) execRows(query string, rows *sdk.Table) error {
	h, release := handOver(rows)
	defer release()
	return tx.exec(query, h)
}

// isCurrent says whether a pending version is its partition's current one.
func (tx *writeTx) isCurrent(p pendingVersion) bool {
	st := tx.parts[partKey{p.o.Product, p.o.Partition}]
	return st != nil && st.current == p.version
}

// insertVersionSQL inserts one version row; values gives its arguments.
const insertVersionSQL = `INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, row_count, schema, created_at, storage_table, is_current, ever_current, content_hash, snapshot, based_on, inputs)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?::JSON, ?, ?::JSON, ?, ?, ?, ?, ?, ?, ?, nullif(?, '')::JSON)`

func (p pendingVersion) values(current bool) []any {
	o := p.o
	return []any{o.Product, o.Partition, o.PartitionStart, o.PartitionEnd, p.version, o.RunID, o.CodeHash,
		o.upstream, p.rows, encodeSchema(o.schema), p.created, p.table, current, current, o.hash, o.Snapshot, p.basedOn, o.inputs}
}

// insertRows are the pending version rows, each current when its
// partition's current version is it.
func (tx *writeTx) insertRows() *sdk.Table {
	var c batchColumns
	for _, p := range tx.batch.inserts {
		o := p.o
		c.row()
		c.str("s_product", o.Product)
		c.str("s_partition", o.Partition)
		c.time("s_start", o.PartitionStart)
		c.time("s_end", o.PartitionEnd)
		c.int("s_version", int64(p.version))
		c.str("s_run", o.RunID)
		c.str("s_code", o.CodeHash)
		c.str("s_upstream", o.upstream)
		c.int("s_rows", p.rows)
		c.str("s_schema", encodeSchema(o.schema))
		c.time("s_created", p.created)
		c.str("s_table", p.table)
		c.bool("s_current", tx.isCurrent(p))
		c.str("s_hash", o.hash)
		c.str("s_snapshot", o.Snapshot)
		c.int("s_based_on", int64(p.basedOn))
		c.str("s_inputs", o.inputs)
	}
	return c.table()
}

// flagChanges are the is_current flags to write: for each partition whose
// current version moved, the old one's cleared (unless deleted) and the new
// one's set (unless it is a pending insert, inserted with its flag).
func (tx *writeTx) flagChanges() []flagChange {
	b := &tx.batch
	keys := make([]partKey, 0, len(tx.parts))
	for k, st := range tx.parts {
		if b.orig[k] != st.current {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].product != keys[j].product {
			return keys[i].product < keys[j].product
		}
		return keys[i].partition < keys[j].partition
	})
	var out []flagChange
	for _, k := range keys {
		st, old := tx.parts[k], b.orig[k]
		if _, kept := st.kept(old); old != 0 && kept {
			out = append(out, flagChange{VersionRef{k.product, k.partition, old}, false})
		}
		ref := VersionRef{Product: k.product, Partition: k.partition, Version: st.current}
		if st.current != 0 && b.pendingInsert(ref) < 0 {
			out = append(out, flagChange{ref, true})
		}
	}
	return out
}

// refRows are versions as (s_product, s_partition, s_version), or
// (s_partition, s_version) for a storage table's rows.
func refRows(refs []VersionRef, withProduct bool) *sdk.Table {
	var c batchColumns
	for _, r := range refs {
		c.row()
		if withProduct {
			c.str("s_product", r.Product)
		}
		c.str("s_partition", r.Partition)
		c.int("s_version", int64(r.Version))
	}
	return c.table()
}

func pinRows(pins []pinRow) *sdk.Table {
	var c batchColumns
	for _, p := range pins {
		c.row()
		c.str("s_owner", p.owner)
		c.str("s_product", p.ref.Product)
		c.str("s_partition", p.ref.Partition)
		c.int("s_version", int64(p.ref.Version))
	}
	return c.table()
}

// batchColumns builds a table a row at a time: row starts one, and every
// row names its columns in the same order (the first row creates them).
type batchColumns struct {
	cols []*sdk.Column
	rows int
	at   int // the next column of the current row
}

func (c *batchColumns) row() { c.at, c.rows = 0, c.rows+1 }

func (c *batchColumns) col(name string, t sdk.Type) *sdk.Column {
	if c.rows == 1 && c.at == len(c.cols) {
		c.cols = append(c.cols, sdk.NewColumn(name, t))
	}
	col := c.cols[c.at]
	if col.Name != name {
		panic(fmt.Sprintf("batch column %d is %s, not %s", c.at, col.Name, name)) // a coding error
	}
	c.at++
	return col
}

func (c *batchColumns) str(name, v string)       { c.col(name, sdk.TypeString).AppendString(v) }
func (c *batchColumns) int(name string, v int64) { c.col(name, sdk.TypeInt64).AppendInt64(v) }
func (c *batchColumns) bool(name string, v bool) { c.col(name, sdk.TypeBool).AppendBool(v) }
func (c *batchColumns) time(name string, v time.Time) {
	c.col(name, sdk.TypeTime).AppendTime(v)
}

// table returns the table of every row.
func (c *batchColumns) table() *sdk.Table {
	t := sdk.NewTable()
	for _, col := range c.cols {
		t.AddColumn(col)
	}
	return t
}
