package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// bindVersions makes the versions refs (of one product, in read order) the
// temporary relation name: a view over the storage tables, so the rows
// never leave DuckDB. The view is what Read returns for the same versions,
// without _partition: the same union columns, types and casts, in partition
// order and then as written. Two cases go through Go as Read does, because
// Read's answer there is not a plain projection of the storage: int128
// columns (Read narrows them to int64 when every value fits) and a product
// without columns (its rows are no relation; Read's, without _partition,
// is an empty table). It returns the versions read (see RunSQLInputs).
func bindVersions(ctx context.Context, conn *sql.Conn, name string, refs []VersionRef) ([]VersionRef, error) {
	if len(refs) == 0 {
		return nil, fmt.Errorf("no versions to read")
	}
	product := refs[0].Product
	parts, storage, read, err := pinnedParts(ctx, conn, product, refs)
	if err != nil {
		return nil, err
	}
	inner, cols := unionSQL(parts, storage)
	viaGo := len(cols) == 0
	for _, c := range cols {
		viaGo = viaGo || c.typ == sdk.TypeInt128
	}
	if viaGo {
		t, err := queryTable(ctx, conn, readSQL(parts, storage, -1))
		if err != nil {
			return nil, err
		}
		return read, createTempTable(ctx, conn, name, withoutPartition(t))
	}
	list := make([]string, len(cols))
	for i, c := range cols {
		list[i] = quoteIdent(c.name)
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("CREATE OR REPLACE TEMP VIEW %s AS SELECT %s FROM (\n%s\n) ORDER BY __strata_ord, __strata_rid",
		quoteIdent(name), strings.Join(list, ", "), inner))
	return read, err
}

// pinnedParts looks refs up in the catalog, with the storage tables that
// hold them (in creation order, as productTables lists them), in one query.
// A version no longer there (a newer one replaced it and retention removed
// it since the caller chose it) gives way to its partition's current
// version; a partition with neither is an error.
func pinnedParts(ctx context.Context, q querier, product string, refs []VersionRef) ([]selectedPartition, []storageTable, []VersionRef, error) {
	keys := make([]string, len(refs))
	for i, r := range refs {
		if r.Product != product {
			return nil, nil, nil, fmt.Errorf("one input reads products %s and %s", product, r.Product)
		}
		keys[i] = quoteLiteral(r.Partition)
	}
	rows, err := q.QueryContext(ctx, `SELECT v.partition, v.version, v.storage_table, v.row_count, v.is_current, s.schema::VARCHAR, s.created_at
		FROM _strata.versions v JOIN _strata.storage s ON s.table_name = v.storage_table
		WHERE v.product = ? AND v.partition IN (`+strings.Join(keys, ", ")+`)`, product)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("versions of %s: %w", product, err)
	}
	type found struct {
		table string
		rows  int64
	}
	type table struct {
		schema  string
		created time.Time
	}
	exact := map[VersionRef]found{}
	current := map[string]int{}
	tables := map[string]table{}
	for rows.Next() {
		var r VersionRef
		var f found
		var t table
		var isCurrent bool
		if err := rows.Scan(&r.Partition, &r.Version, &f.table, &f.rows, &isCurrent, &t.schema, &t.created); err != nil {
			rows.Close()
			return nil, nil, nil, err
		}
		r.Product = product
		exact[r] = f
		tables[f.table] = t
		if isCurrent {
			current[r.Partition] = r.Version
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	parts := make([]selectedPartition, 0, len(refs))
	read := make([]VersionRef, 0, len(refs))
	used := map[string]bool{}
	for _, r := range refs {
		f, ok := exact[r]
		if !ok {
			v, has := current[r.Partition]
			if !has {
				return nil, nil, nil, fmt.Errorf("%s is gone and the partition has no current version: %w", r, ErrNotFound)
			}
			r.Version = v
			f = exact[r]
		}
		parts = append(parts, selectedPartition{partition: r.Partition, version: r.Version, table: f.table, rows: f.rows})
		read = append(read, r)
		used[f.table] = true
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := tables[names[i]], tables[names[j]]
		if !a.created.Equal(b.created) {
			return a.created.Before(b.created)
		}
		return names[i] < names[j]
	})
	storage := make([]storageTable, len(names))
	for i, n := range names {
		schema, err := decodeSchema(tables[n].schema)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("storage table %s: %w", n, err)
		}
		storage[i] = storageTable{name: n, schema: schema}
	}
	return parts, storage, read, nil
}

// withoutPartition drops Read's _partition column: bookkeeping, not the
// upstream's output.
func withoutPartition(t *sdk.Table) *sdk.Table {
	out := &sdk.Table{}
	for _, c := range t.Columns() {
		if c.Name != colPartition {
			out.AddColumn(c)
		}
	}
	return out
}
