package warehouse

import (
	"fmt"
	"sort"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// A transaction's new versions' rows are inserted when it flushes, one
// INSERT per storage table for all of them, not one per version: a
// backfill's group of partitions (warehouse.PublishGroup) writes the same
// few storage tables once per partition, and a statement costs about half
// a millisecond of planning and binding whatever its rows. The rows of
// each version come through strata_rows as one stream, each batch with its
// partition and version in the two leading columns. flush runs before
// anything in the transaction reads or deletes a storage table's rows (the
// orphan sweep runs inside flush, after them), and before COMMIT, so a
// reader sees exactly what it saw before.

// pendingRows are one version's rows to insert.
type pendingRows struct {
	partition string
	version   int
	t         *sdk.Table
}

// rowBatch is what strata_rows serves for one storage table's flush.
type rowBatch []pendingRows

// insertTable queues t as rows of (partition, version) of table. An empty
// table costs no statement: its version is its catalog row alone.
func (tx *writeTx) insertTable(table, partition string, version int, t *sdk.Table) error {
	if t.Len() == 0 {
		return nil
	}
	if tx.rows == nil {
		tx.rows = map[string]rowBatch{}
	}
	tx.rows[table] = append(tx.rows[table], pendingRows{partition: partition, version: version, t: t})
	return nil
}

// flushRows inserts the queued rows: one version through the prepared
// INSERT of insertSQL, several in one INSERT over their batch.
func (tx *writeTx) flushRows() error {
	if err := tx.flushFiles(); err != nil { // lake_file_output.go
		return err
	}
	if len(tx.rows) == 0 {
		return nil
	}
	tables := make([]string, 0, len(tx.rows))
	for t := range tx.rows {
		tables = append(tables, t)
	}
	sort.Strings(tables)
	for _, table := range tables {
		b := tx.rows[table]
		var err error
		if len(b) == 1 {
			h, release := handOver(b[0].t)
			err = tx.exec(insertSQL(table), b[0].partition, b[0].version, h)
			release()
		} else {
			h, release := handOver(b)
			err = tx.exec(insertBatchSQL(table), h)
			release()
		}
		if err != nil {
			return fmt.Errorf("append %d versions' rows to %s: %w", len(b), table, err)
		}
		delete(tx.rows, table)
	}
	return nil
}

// insertBatchSQL appends a rowBatch handed over through strata_rows.
func insertBatchSQL(table string) string {
	return fmt.Sprintf("INSERT INTO %s SELECT * FROM %s($1)", qualified(table), tableSourceFunc)
}

// batchRows serves a rowBatch, one version's rows at a time (a chunk
// never mixes two versions).
type batchRows struct {
	b        rowBatch
	infos    []duckdb.ColumnInfo
	at, next int // the version served, and its next row
}

func newBatchRows(b rowBatch) (*batchRows, error) {
	r := &batchRows{b: b, infos: []duckdb.ColumnInfo{
		{Name: colPartition, T: mustTypeInfo(duckdb.TYPE_VARCHAR)},
		{Name: colVersion, T: mustTypeInfo(duckdb.TYPE_INTEGER)},
	}}
	for _, c := range b[0].t.Columns() {
		ti, err := duckTypeInfo(c)
		if err != nil {
			return nil, err
		}
		r.infos = append(r.infos, duckdb.ColumnInfo{Name: c.Name, T: ti})
	}
	return r, nil
}

func (r *batchRows) ColumnInfos() []duckdb.ColumnInfo { return r.infos }

func (r *batchRows) Cardinality() *duckdb.CardinalityInfo {
	n := 0
	for _, p := range r.b {
		n += p.t.Len()
	}
	return &duckdb.CardinalityInfo{Cardinality: uint(n), Exact: true}
}

func (r *batchRows) Init() {}

func (r *batchRows) FillChunk(chunk duckdb.DataChunk) error {
	for r.at < len(r.b) && r.next >= r.b[r.at].t.Len() {
		r.at, r.next = r.at+1, 0
	}
	if r.at == len(r.b) {
		return chunk.SetSize(0)
	}
	p := r.b[r.at]
	n := min(duckdb.GetDataChunkCapacity(), p.t.Len()-r.next)
	if err := chunk.SetSize(n); err != nil {
		return err
	}
	if projected(chunk, 0) {
		key := bytesOf(p.partition)
		for i := 0; i < n; i++ {
			if err := duckdb.SetChunkValue(chunk, 0, i, key); err != nil {
				return err
			}
		}
	}
	if projected(chunk, 1) {
		for i := 0; i < n; i++ {
			if err := duckdb.SetChunkValue(chunk, 1, i, int32(p.version)); err != nil {
				return err
			}
		}
	}
	if err := fillChunk(chunk, p.t, r.next, n, 2); err != nil {
		return err
	}
	r.next += n
	return nil
}
