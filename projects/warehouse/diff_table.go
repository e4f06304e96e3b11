package warehouse

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

// A replay (projects/replay) computes a partition again and compares the
// result with the version it kept, without writing anything: the new rows
// stay in Go and reach DuckDB through strata_rows, as a publish hands them
// over, but inside a read-only transaction. The comparison is the review's
// (same keyed row diff, same column summaries), with the table as the
// "after" side. The content hash decides the common case, an unchanged
// partition, without reading a row of either side.

// memTable names the pseudo storage table of a table diffed from memory.
const memTable = "\x00replayed"

// memSide is an in-memory table as one side of a diff.
type memSide struct {
	partition string
	handle    int64
	schema    []sdk.Field
}

// sql projects the table onto cols, with a leading _partition.
func (m *memSide) sql(cols []unionColumn) string {
	t := storageTable{name: memTable, schema: m.schema}
	return fmt.Sprintf("SELECT %s FROM (SELECT %s AS %s, * FROM %s(%d)) AS t",
		selectList(t, cols), quoteLiteral(m.partition), colPartition, tableSourceFunc, m.handle)
}

// DiffTable compares a kept version of a partition (before) with t, rows
// computed now and not stored (after). The result's To is 0: t is no
// version. Nothing is written; with opt.Rows it returns the first changed
// rows, keyed by opt.Keys as a review's diff is.
func (w *Warehouse) DiffTable(ctx context.Context, product, partition string, version int, t *sdk.Table, opt DiffOptions) (*PartitionDiff, error) {
	schema, err := tableSchema(t)
	if err != nil {
		return nil, fmt.Errorf("diff %s partition %s against a computed table: %w", product, partition, err)
	}
	hash := contentHash(t, schema)
	var d *PartitionDiff
	err = w.onConn(ctx, func(conn *sql.Conn) error {
		// Registered before the transaction starts: a read-only one
		// cannot add a function to the connection's catalog.
		if err := registerTableSource(conn); err != nil {
			return fmt.Errorf("register %s: %w", tableSourceFunc, err)
		}
		return w.readOnConn(ctx, conn, func() error {
			var err error
			d, err = diffTable(ctx, conn, product, partition, version, t, schema, hash, opt)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("diff %s partition %s version %d against a computed table: %w", product, partition, version, err)
	}
	return d, nil
}

func diffTable(ctx context.Context, q querier, product, partition string, version int, t *sdk.Table, schema []sdk.Field, hash string, opt DiffOptions) (*PartitionDiff, error) {
	if version < 1 {
		return nil, fmt.Errorf("version %d: want a version of 1 or more to compare with", version)
	}
	ref := partVersion{partition, version}
	metas, err := versionMetas(ctx, q, product, []partVersion{ref})
	if err != nil {
		return nil, err
	}
	old := metas[ref]
	if old == nil {
		return nil, missingVersion(ctx, q, VersionRef{Product: product, Partition: partition, Version: version})
	}
	now := &versionMeta{partition: partition, table: memTable, rows: int64(t.Len()), schema: schema, hash: hash}
	before := side{metas: []*versionMeta{old}}
	d := &PartitionDiff{Product: product, Partition: partition, From: version, RowsBefore: old.rows, RowsAfter: now.rows,
		Keys: []string{}, RowColumns: []string{}, Rows: []RowChange{}, Columns: []ColumnChange{}}
	if sameContent(old, now) {
		d.Unchanged = true
		return d, nil
	}
	h, release := handOver(t)
	defer release()
	after := side{metas: []*versionMeta{now}, mem: &memSide{partition: partition, handle: h, schema: schema}}
	d.Schema = schemaChange(schemaOf(before), schemaOf(after))
	if err := compareSides(ctx, q, d, before, after, partition, opt); err != nil {
		return nil, err
	}
	d.Unchanged = d.Counts.Total() == 0 && d.Schema.Empty()
	return d, nil
}
