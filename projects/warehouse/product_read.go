package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Selection picks partitions of a product. At most one of Partitions, Last
// and From/To may be set; none selects every partition. Reads return current
// versions, except that Version (with exactly one partition in Partitions)
// reads that version instead.
type Selection struct {
	Partitions []string  // these partition keys
	Last       int       // the partitions of the latest n starts (the latest n partitions of a calendar)
	From, To   time.Time // partitions whose start is in [From, To]; either may be zero (open)
	Version    int       // with one partition: this version instead of the current one
	// PreferPinned names a pin owner (an environment's, env:<name>): a
	// partition it pinned reads its newest pinned version instead of the
	// current one, as a run's upstream inputs do (engine RunOptions.PreferPinned).
	PreferPinned string
}

func (s Selection) validate() error {
	modes := 0
	if len(s.Partitions) > 0 {
		modes++
	}
	if s.Last != 0 {
		modes++
	}
	if !s.From.IsZero() || !s.To.IsZero() {
		modes++
	}
	switch {
	case s.Last < 0:
		return fmt.Errorf("selection: last %d is negative", s.Last)
	case s.Version < 0:
		return fmt.Errorf("selection: version %d is negative", s.Version)
	case modes > 1:
		return fmt.Errorf("selection: give partitions, last N or a from/to range, not several")
	case s.Version != 0 && (len(s.Partitions) != 1 || modes != 1):
		return fmt.Errorf("selection: version %d needs exactly one partition", s.Version)
	case !s.From.IsZero() && !s.To.IsZero() && s.From.After(s.To):
		return fmt.Errorf("selection: from %s is after to %s", s.From.Format(time.RFC3339), s.To.Format(time.RFC3339))
	}
	return nil
}

// selectedPartition is one (partition, version) a read returns, in order.
type selectedPartition struct {
	partition string
	version   int
	table     string
	rows      int64     // the version's row count, from the catalog
	start     time.Time // the partition's start (zero for a read of one version)
}

// Read returns the rows of the selected partitions of a product, ordered by
// partition start, then as they were written, with a leading _partition
// column. Partitions written with different schemas are unioned by column
// name (missing columns are NULL). limit <= 0 means all rows.
func (w *Warehouse) Read(ctx context.Context, product string, sel Selection, limit int) (*sdk.Table, error) {
	t, _, err := w.ReadCounted(ctx, product, sel, limit)
	return t, err
}

// ReadCounted is Read that also returns how many rows the selection holds
// in all (from the catalog, in the same snapshot), so a preview of the
// first rows can say "first 100 of 1,204".
func (w *Warehouse) ReadCounted(ctx context.Context, product string, sel Selection, limit int) (*sdk.Table, int64, error) {
	t, total, _, err := w.readSelection(ctx, product, sel, limit)
	return t, total, err
}

// ReadSelected is Read that also returns the versions it read, in read
// order: what a block's ctx.Product call computed from, which its
// version's lineage records.
func (w *Warehouse) ReadSelected(ctx context.Context, product string, sel Selection) (*sdk.Table, []VersionRef, error) {
	t, _, read, err := w.readSelection(ctx, product, sel, -1)
	return t, read, err
}

func (w *Warehouse) readSelection(ctx context.Context, product string, sel Selection, limit int) (*sdk.Table, int64, []VersionRef, error) {
	if err := sel.validate(); err != nil {
		return nil, 0, nil, fmt.Errorf("read %s: %w", product, err)
	}
	var out *sdk.Table
	var total int64
	var read []VersionRef
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		parts, err := resolveSelection(ctx, conn, product, sel)
		if err != nil {
			return err
		}
		read = read[:0]
		for _, p := range parts {
			total += p.rows
			read = append(read, VersionRef{Product: product, Partition: p.partition, Version: p.version})
		}
		storage, err := productTables(ctx, conn, product)
		if err != nil {
			return err
		}
		if len(parts) == 0 {
			out = emptyRead(storage)
			return nil
		}
		out, err = queryTable(ctx, conn, readSQL(parts, storage, limit))
		return err
	})
	if err != nil {
		return nil, 0, nil, fmt.Errorf("read %s: %w", product, err)
	}
	return out, total, read, nil
}

// ReadVersions reads the given versions of one product (refs, in read
// order) in one snapshot, as Read reads partitions, and returns the
// versions it read: exactly refs, unless retention removed one since the
// caller chose it, which then gives way to its partition's current version
// (the caller records what was read, not what it had chosen).
func (w *Warehouse) ReadVersions(ctx context.Context, refs []VersionRef) (*sdk.Table, []VersionRef, error) {
	if len(refs) == 0 {
		return nil, nil, fmt.Errorf("read versions: none given")
	}
	product := refs[0].Product
	var out *sdk.Table
	var read []VersionRef
	err := w.readTx(ctx, func(conn *sql.Conn) error {
		// The read unions only the storage tables its versions live in,
		// which pinnedParts looks up with them.
		parts, storage, got, err := pinnedParts(ctx, conn, product, refs)
		if err != nil {
			return err
		}
		read = got
		out, err = queryTable(ctx, conn, readSQL(parts, storage, -1))
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", product, err)
	}
	return out, read, nil
}

// readTx runs fn on a pooled connection inside a read-only transaction, so
// the catalog lookups and the row query see one snapshot (a publish or
// retention committing in between cannot tear a read) and DuckDB refuses any
// write.
func (w *Warehouse) readTx(ctx context.Context, fn func(conn *sql.Conn) error) error {
	return w.onConn(ctx, func(conn *sql.Conn) error {
		return w.readOnConn(ctx, conn, func() error { return fn(conn) })
	})
}

// readOnConn is readTx on a connection the caller holds.
func (w *Warehouse) readOnConn(ctx context.Context, conn *sql.Conn, fn func() error) error {
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION READ ONLY"); err != nil {
		return err
	}
	if err := fn(); err != nil {
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn }) // do not return it to the pool
		}
		return err
	}
	_, err := conn.ExecContext(context.WithoutCancel(ctx), "COMMIT")
	return err
}

// onConn runs fn on a pooled connection of the open warehouse.
func (w *Warehouse) onConn(ctx context.Context, fn func(conn *sql.Conn) error) error {
	if err := w.checkOpen(); err != nil {
		return err
	}
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return fn(conn)
}

// ChosenVersion is the SQL condition on _strata.versions aliased v that
// picks the version a reader sees of each partition, with its arguments:
// the current one, or with owner the newest one owner pinned, else the
// current one (an environment's view of a product).
func ChosenVersion(owner string) (string, []any) {
	if owner == "" {
		return "v.is_current", nil
	}
	return `(v.version = (SELECT max(p.version) FROM _strata.pins p WHERE p.owner = ? AND p.product = v.product AND p.partition = v.partition)
		OR (v.is_current AND NOT EXISTS (SELECT 1 FROM _strata.pins p WHERE p.owner = ? AND p.product = v.product AND p.partition = v.partition)))`, []any{owner, owner}
}

// resolveSelection turns a selection into (partition, version, table) in
// read order, or a not-found error that lists what exists.
func resolveSelection(ctx context.Context, q querier, product string, sel Selection) ([]selectedPartition, error) {
	if sel.Version != 0 {
		r := VersionRef{Product: product, Partition: sel.Partitions[0], Version: sel.Version}
		table, n, err := lookupVersion(ctx, q, r)
		if err != nil {
			return nil, err
		}
		return []selectedPartition{{partition: r.Partition, version: r.Version, table: table, rows: n}}, nil
	}
	cur, args := ChosenVersion(sel.PreferPinned)
	args = append(args, product)
	base := `SELECT v.partition, v.version, v.storage_table, v.row_count, v.partition_start
		FROM _strata.versions v
		WHERE ` + cur + ` AND v.product = ?`
	query := base + " ORDER BY v.partition_start, v.partition"
	switch {
	case len(sel.Partitions) > 0:
		keys := make([]string, len(sel.Partitions))
		for i, k := range sel.Partitions {
			keys[i] = quoteLiteral(k)
		}
		query = base + " AND v.partition IN (" + strings.Join(keys, ", ") + ") ORDER BY v.partition_start, v.partition"
	case sel.Last > 0:
		// The partitions of the latest n starts: one partition per start
		// for a calendar, every cell of each of those days (regions,
		// customers) for a product with value dimensions.
		cur2, args2 := ChosenVersion(sel.PreferPinned)
		query = base + ` AND v.partition_start IN (
			SELECT DISTINCT v.partition_start FROM _strata.versions v
			WHERE ` + cur2 + ` AND v.product = ?
			ORDER BY v.partition_start DESC LIMIT ?) ORDER BY v.partition_start, v.partition`
		args = append(append(append(args, args2...), product), sel.Last)
	case !sel.From.IsZero() || !sel.To.IsZero():
		cond := ""
		if !sel.From.IsZero() {
			cond += " AND v.partition_start >= ?"
			args = append(args, sel.From)
		}
		if !sel.To.IsZero() {
			cond += " AND v.partition_start <= ?"
			args = append(args, sel.To)
		}
		query = base + cond + " ORDER BY v.partition_start, v.partition"
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("resolve partitions: %w", err)
	}
	var out []selectedPartition
	for rows.Next() {
		var p selectedPartition
		if err := rows.Scan(&p.partition, &p.version, &p.table, &p.rows, &p.start); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(sel.Partitions) > 0 {
		found := make(map[string]bool, len(out))
		for _, p := range out {
			found[p.partition] = true
		}
		for _, k := range sel.Partitions {
			if found[k] {
				continue
			}
			if err := missingPartition(ctx, q, product, k); err != nil {
				return nil, err
			}
			versions, _, _, err := partitionState(ctx, q, product, k)
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("product %q partition %s has no current version (staged versions: %s): %w", product, k, intList(versions), ErrNotFound)
		}
	}
	if len(out) == 0 {
		if err := missingProduct(ctx, q, product); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// productTables reads a product's storage tables in creation order.
func productTables(ctx context.Context, q querier, product string) ([]storageTable, error) {
	rows, err := q.QueryContext(ctx, `SELECT table_name, schema::VARCHAR FROM _strata.storage WHERE product = ? ORDER BY created_at, table_name`, product)
	if err != nil {
		return nil, fmt.Errorf("storage tables of %s: %w", product, err)
	}
	defer rows.Close()
	var out []storageTable
	for rows.Next() {
		var name, schemaJSON string
		if err := rows.Scan(&name, &schemaJSON); err != nil {
			return nil, err
		}
		schema, err := decodeSchema(schemaJSON)
		if err != nil {
			return nil, fmt.Errorf("storage table %s: %w", name, err)
		}
		out = append(out, storageTable{name: name, schema: schema})
	}
	return out, rows.Err()
}

// readSQL selects the rows of parts from their storage tables, unioned over
// the tables involved (newest schema first), in partition order and then
// insertion order (rowid).
func readSQL(parts []selectedPartition, storage []storageTable, limit int) string {
	inner, _ := unionSQL(parts, storage)
	q := "SELECT * EXCLUDE (__strata_ord, __strata_rid) FROM (\n" + inner + "\n) ORDER BY __strata_ord, __strata_rid"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	return q
}

// unionSQL is the rows of parts with _partition, the union columns (whose
// names it returns) and the read order in __strata_ord, __strata_rid.
func unionSQL(parts []selectedPartition, storage []storageTable) (string, []unionColumn) {
	byTable := map[string][]int{} // table -> indexes into parts
	for i, p := range parts {
		byTable[p.table] = append(byTable[p.table], i)
	}
	var used []storageTable
	for _, t := range newestFirst(storage) {
		if len(byTable[t.name]) > 0 {
			used = append(used, t)
		}
	}
	cols := unionSchema(used)
	var b strings.Builder
	for i, t := range used {
		if i > 0 {
			b.WriteString("\nUNION ALL\n")
		}
		idx := byTable[t.name]
		if len(idx) == 1 {
			p := parts[idx[0]]
			fmt.Fprintf(&b, "SELECT %s, %d AS __strata_ord, t.rowid AS __strata_rid FROM %s AS t WHERE t.%s = %s AND t.%s = %d",
				selectList(t, cols), idx[0], qualified(t.name), colPartition, quoteLiteral(p.partition), colVersion, p.version)
			continue
		}
		values := make([]string, len(idx))
		for j, k := range idx {
			values[j] = fmt.Sprintf("(%s, %d, %d)", quoteLiteral(parts[k].partition), parts[k].version, k)
		}
		fmt.Fprintf(&b, "SELECT %s, s.ord AS __strata_ord, t.rowid AS __strata_rid FROM %s AS t JOIN (VALUES %s) AS s(p, v, ord) ON t.%s = s.p AND t.%s = s.v",
			selectList(t, cols), qualified(t.name), strings.Join(values, ", "), colPartition, colVersion)
	}
	return b.String(), cols
}

// emptyRead is the result of a selection that matched no partition: the
// newest schema, no rows.
func emptyRead(storage []storageTable) *sdk.Table {
	t := sdk.NewTable(sdk.String(colPartition))
	if len(storage) > 0 {
		for _, f := range storage[len(storage)-1].schema {
			t.AddColumn(sdk.NewFieldColumn(f))
		}
	}
	return t
}
