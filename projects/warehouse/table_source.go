package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// tableSourceFunc is the table function through which a publish hands an
// sdk.Table to DuckDB: `INSERT INTO t SELECT p, v, * FROM strata_rows(h)`.
// DuckDB pulls whole vectors, filled column by column with typed setters, so
// no value is boxed into an interface and no SQL is parsed per row; this is
// what brings a large publish to DuckDB's own insert speed.
const tableSourceFunc = "strata_rows"

// pendingTables maps a handle to the table an INSERT is about to read.
var (
	pendingTables sync.Map // int64 -> *sdk.Table
	nextHandle    atomic.Int64
)

// registerMu serializes registerTableSource. DuckDB puts a table function
// in the database's system catalog, replacing one of the same name, each
// time in its own transaction; two connections registering at once are two
// transactions writing one catalog entry, and the second fails with only
// "could not create table UDF" (a replay's diff beside the writer did, in CI).
var registerMu sync.Mutex

// registerTableSource installs strata_rows on conn's database; registering
// it again replaces it with the same function.
func registerTableSource(conn *sql.Conn) error {
	registerMu.Lock()
	defer registerMu.Unlock()
	return duckdb.RegisterTableUDF(conn, tableSourceFunc, duckdb.ChunkTableFunction{
		Config: duckdb.TableFunctionConfig{Arguments: []duckdb.TypeInfo{mustTypeInfo(duckdb.TYPE_BIGINT)}},
		BindArguments: func(_ map[string]any, args ...any) (duckdb.ChunkTableSource, error) {
			h, _ := args[0].(int64)
			t, ok := pendingTables.Load(h)
			if !ok {
				return nil, fmt.Errorf("%s: no table behind handle %d", tableSourceFunc, h)
			}
			if b, ok := t.(rowBatch); ok { // table_batch.go
				return newBatchRows(b)
			}
			return newTableRows(t.(*sdk.Table))
		},
	})
}

func mustTypeInfo(t duckdb.Type) duckdb.TypeInfo {
	ti, err := duckdb.NewTypeInfo(t)
	if err != nil {
		panic(err) // a primitive type always has a TypeInfo
	}
	return ti
}

// handOver makes t (an *sdk.Table or a rowBatch) what strata_rows(h)
// reads until release is called.
func handOver(t any) (h int64, release func()) {
	h = nextHandle.Add(1)
	pendingTables.Store(h, t)
	return h, func() { pendingTables.Delete(h) }
}

// insertTable appends t as rows of (partition, version) into table.
func insertTable(ctx context.Context, conn *sql.Conn, table, partition string, version int, t *sdk.Table) error {
	h, release := handOver(t)
	defer release()
	if _, err := conn.ExecContext(ctx, insertSQL(table), partition, version, h); err != nil {
		return fmt.Errorf("append to %s: %w", table, err)
	}
	return nil
}

// insertSQL is the INSERT that appends a table handed over through
// strata_rows: its arguments are the partition, the version and the handle,
// so a writer prepares it once per storage table rather than parsing it
// again for every publish.
func insertSQL(table string) string {
	return fmt.Sprintf("INSERT INTO %s SELECT $1::VARCHAR, $2::INTEGER, * FROM %s($3)", qualified(table), tableSourceFunc)
}

// tableRows serves one table, a data chunk at a time.
type tableRows struct {
	t     *sdk.Table
	infos []duckdb.ColumnInfo
	next  int
}

func newTableRows(t *sdk.Table) (*tableRows, error) {
	r := &tableRows{t: t}
	for _, c := range t.Columns() {
		ti, err := duckTypeInfo(c)
		if err != nil {
			return nil, err
		}
		r.infos = append(r.infos, duckdb.ColumnInfo{Name: c.Name, T: ti})
	}
	return r, nil
}

func (r *tableRows) ColumnInfos() []duckdb.ColumnInfo { return r.infos }

func (r *tableRows) Cardinality() *duckdb.CardinalityInfo {
	return &duckdb.CardinalityInfo{Cardinality: uint(r.t.Len()), Exact: true}
}

func (r *tableRows) Init() {}

func (r *tableRows) FillChunk(chunk duckdb.DataChunk) error {
	n := min(duckdb.GetDataChunkCapacity(), r.t.Len()-r.next)
	if n <= 0 {
		return chunk.SetSize(0)
	}
	if err := chunk.SetSize(n); err != nil {
		return err
	}
	if err := fillChunk(chunk, r.t, r.next, n, 0); err != nil {
		return err
	}
	r.next += n
	return nil
}

// fillChunk writes rows lo..lo+n of t into the chunk's columns from first on.
func fillChunk(chunk duckdb.DataChunk, t *sdk.Table, lo, n, first int) error {
	for jt, c := range t.Columns() {
		j := first + jt
		if !projected(chunk, j) {
			continue
		}
		var err error
		switch c.Type {
		case sdk.TypeInt64:
			err = fillColumn(chunk, j, c, c.Int64s()[lo:lo+n], lo)
		case sdk.TypeFloat64:
			err = fillColumn(chunk, j, c, c.Float64s()[lo:lo+n], lo)
		case sdk.TypeString:
			err = fillStrings(chunk, j, c, c.Strings()[lo:lo+n], lo)
		case sdk.TypeBool:
			err = fillColumn(chunk, j, c, c.Bools()[lo:lo+n], lo)
		case sdk.TypeTime, sdk.TypeDate, sdk.TypeTimestamp:
			err = fillColumn(chunk, j, c, c.Times()[lo:lo+n], lo)
		case sdk.TypeUint64:
			err = fillColumn(chunk, j, c, c.Uint64s()[lo:lo+n], lo)
		case sdk.TypeInt128:
			err = fillColumn(chunk, j, c, c.BigInts()[lo:lo+n], lo)
		case sdk.TypeDecimal:
			err = fillDecimals(chunk, j, c, lo, n)
		}
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
	}
	return nil
}

// projected reports whether DuckDB asked for column j (strata_rows supports
// projection pushdown: a query reading two columns of a CTE over it asks for
// two). An unprojected column must be skipped here, not written: the driver
// accepts and drops each value, but builds an error with fmt.Errorf for
// every one, which made a count(*) over 300 rows cost two milliseconds.
//
// The driver of DuckDB 1.5.5 (the pin whose extension files exist) has no
// way to ask, so one value of a type no column converts from is written:
// a projected column refuses it with a cast error before writing anything,
// an unprojected one silently drops it.
func projected(chunk duckdb.DataChunk, j int) bool {
	return chunk.SetValue(j, 0, projectionProbe{}) != nil
}

// projectionProbe is the value projected writes: no vector setter converts it.
type projectionProbe struct{}

// fillColumn writes vals (rows lo.. of column c) into one chunk column.
// A NULL goes through chunk.SetValue: the generic SetChunkValue of DuckDB
// 1.5.5's driver does not handle nil (it panics building its cast error).
func fillColumn[T any](chunk duckdb.DataChunk, col int, c *sdk.Column, vals []T, lo int) error {
	nulls := c.Nulls()
	for i, v := range vals {
		var err error
		if nulls != nil && nulls[lo+i] {
			err = chunk.SetValue(col, i, nil)
		} else {
			err = duckdb.SetChunkValue(chunk, col, i, v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fillStrings is fillColumn for strings, each handed to the driver as a
// view of its bytes: given a string, the driver copies it into a new
// []byte before DuckDB copies it again into the vector (an allocation a
// value, most of what a string column cost to fill). DuckDB only reads
// the bytes during the call.
func fillStrings(chunk duckdb.DataChunk, col int, c *sdk.Column, vals []string, lo int) error {
	nulls := c.Nulls()
	for i, v := range vals {
		var err error
		if nulls != nil && nulls[lo+i] {
			err = chunk.SetValue(col, i, nil)
		} else {
			err = duckdb.SetChunkValue(chunk, col, i, bytesOf(v))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// bytesOf is s's bytes without a copy: never to be written to.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// fillDecimals writes rows lo..lo+n of a decimal column as duckdb.Decimal.
func fillDecimals(chunk duckdb.DataChunk, col int, c *sdk.Column, lo, n int) error {
	nulls := c.Nulls()
	vals := c.Decimals()
	for i := 0; i < n; i++ {
		if nulls != nil && nulls[lo+i] {
			if err := chunk.SetValue(col, i, nil); err != nil {
				return err
			}
			continue
		}
		d, err := decimalValue(c, vals[lo+i])
		if err != nil {
			return err
		}
		if err := duckdb.SetChunkValue(chunk, col, i, d); err != nil {
			return err
		}
	}
	return nil
}
