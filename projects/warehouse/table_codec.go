package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
)

// duckType is the DuckDB column type of an sdk field.
func duckType(f sdk.Field) string { return f.SQLType() }

func duckTypeInfo(c *sdk.Column) (duckdb.TypeInfo, error) {
	switch c.Type {
	case sdk.TypeInt64:
		return duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	case sdk.TypeFloat64:
		return duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	case sdk.TypeString:
		return duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	case sdk.TypeBool:
		return duckdb.NewTypeInfo(duckdb.TYPE_BOOLEAN)
	case sdk.TypeTime:
		return duckdb.NewTypeInfo(duckdb.TYPE_TIMESTAMP_TZ)
	case sdk.TypeDate:
		return duckdb.NewTypeInfo(duckdb.TYPE_DATE)
	case sdk.TypeTimestamp:
		return duckdb.NewTypeInfo(duckdb.TYPE_TIMESTAMP)
	case sdk.TypeUint64:
		return duckdb.NewTypeInfo(duckdb.TYPE_UBIGINT)
	case sdk.TypeInt128:
		return duckdb.NewTypeInfo(duckdb.TYPE_HUGEINT)
	case sdk.TypeDecimal:
		return duckdb.NewDecimalInfo(c.Precision, c.Scale)
	}
	return nil, fmt.Errorf("column type %s has no DuckDB type", c.Type)
}

// driverValues is the column as values the DuckDB driver takes: times,
// uint64 and *big.Int as they are, decimals as duckdb.Decimal (their text
// never passes through a float).
func decimalValue(c *sdk.Column, s string) (duckdb.Decimal, error) {
	u, err := sdk.DecimalUnscaled(s, c.Scale)
	if err != nil {
		return duckdb.Decimal{}, err
	}
	return duckdb.Decimal{Width: c.Precision, Scale: c.Scale, Value: u}, nil
}

// valueGetter returns the driver value of row i of c; nil is NULL.
func valueGetter(c *sdk.Column) func(int) driver.Value {
	nulls := c.Nulls()
	switch c.Type {
	case sdk.TypeInt64:
		v := c.Int64s()
		if nulls == nil {
			return func(i int) driver.Value { return v[i] }
		}
		return func(i int) driver.Value {
			if nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeFloat64:
		v := c.Float64s()
		if nulls == nil {
			return func(i int) driver.Value { return v[i] }
		}
		return func(i int) driver.Value {
			if nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeString:
		v := c.Strings()
		if nulls == nil {
			return func(i int) driver.Value { return v[i] }
		}
		return func(i int) driver.Value {
			if nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeBool:
		v := c.Bools()
		return func(i int) driver.Value {
			if nulls != nil && nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeUint64:
		v := c.Uint64s()
		return func(i int) driver.Value {
			if nulls != nil && nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeInt128:
		v := c.BigInts()
		return func(i int) driver.Value {
			if nulls != nil && nulls[i] {
				return nil
			}
			return v[i]
		}
	case sdk.TypeDecimal:
		v := c.Decimals()
		return func(i int) driver.Value {
			if nulls != nil && nulls[i] {
				return nil
			}
			d, err := decimalValue(c, v[i])
			if err != nil {
				return nil // unreachable: the column's text was normalised on append
			}
			return d
		}
	default: // sdk.TypeTime, TypeDate, TypeTimestamp
		v := c.Times()
		return func(i int) driver.Value {
			if nulls != nil && nulls[i] {
				return nil
			}
			return v[i]
		}
	}
}

// scanKind is how a result column becomes an sdk column.
type scanKind uint8

const (
	scanString scanKind = iota
	scanInt
	scanFloat
	scanTime
	scanBool
	scanUint
	scanBig
	scanDecimal
)

// kindOf maps a DuckDB type name (as the driver reports it) to a column
// kind. Nothing is widened into a type that loses values: integers up to
// 64 bits signed are int64, UBIGINT is uint64, HUGEINT is int128, DECIMAL
// keeps its precision and scale, DATE stays a date, TIMESTAMP a wall time
// and only TIMESTAMPTZ is an instant. UHUGEINT (beyond int128) and the
// types without a counterpart (TIME, INTERVAL, lists, …) are their exact
// text.
func kindOf(dbType string) (scanKind, sdk.Type) {
	base := dbType
	if i := strings.IndexByte(base, '('); i >= 0 {
		base = base[:i]
	}
	switch strings.TrimSpace(base) {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER":
		return scanInt, sdk.TypeInt64
	case "UBIGINT":
		return scanUint, sdk.TypeUint64
	case "HUGEINT":
		return scanBig, sdk.TypeInt128
	case "DECIMAL":
		return scanDecimal, sdk.TypeDecimal
	case "FLOAT", "DOUBLE":
		return scanFloat, sdk.TypeFloat64
	case "DATE":
		return scanTime, sdk.TypeDate
	case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS":
		return scanTime, sdk.TypeTimestamp
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return scanTime, sdk.TypeTime
	case "BOOLEAN":
		return scanBool, sdk.TypeBool
	}
	return scanString, sdk.TypeString
}

// queryTable runs a query and scans its rows into a table.
func queryTable(ctx context.Context, conn *sql.Conn, query string, args ...any) (*sdk.Table, error) {
	rows, err := conn.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanTable(rows)
}

// scanTable reads rows into a table. Duplicate result names (SELECT 1 a, 2 a)
// get a numeric suffix ("a_1"), since a Table's names are unique.
func scanTable(rows *sql.Rows) (*sdk.Table, error) {
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	kinds := make([]scanKind, len(cts))
	dbTypes := make([]string, len(cts))
	cols := make([]*sdk.Column, len(cts))
	used := map[string]bool{}
	for i, ct := range cts {
		dbTypes[i] = ct.DatabaseTypeName()
		var st sdk.Type
		kinds[i], st = kindOf(dbTypes[i])
		name := ct.Name()
		for k := 1; used[strings.ToLower(name)]; k++ {
			name = fmt.Sprintf("%s_%d", ct.Name(), k)
		}
		used[strings.ToLower(name)] = true
		f := sdk.Field{Name: name, Type: st}
		if st == sdk.TypeDecimal {
			// The driver names it "DECIMAL(10,2)" (DecimalSize is not filled in).
			var p, sc int
			if _, err := fmt.Sscanf(dbTypes[i], "DECIMAL(%d,%d)", &p, &sc); err != nil {
				return nil, fmt.Errorf("column %q is %s: want DECIMAL(precision,scale)", name, dbTypes[i])
			}
			f.Precision, f.Scale = uint8(p), uint8(sc)
		}
		cols[i] = sdk.NewFieldColumn(f)
	}
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for r := 0; rows.Next(); r++ {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("scan row %d: %w", r, err)
		}
		for i, v := range vals {
			if err := appendScanned(cols[i], kinds[i], dbTypes[i], v); err != nil {
				return nil, fmt.Errorf("row %d column %q (%s): %w", r, cols[i].Name, dbTypes[i], err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	t := sdk.NewTable()
	for i, c := range cols {
		if kinds[i] == scanBig {
			c = narrowInt128(c)
		}
		t.AddColumn(c)
	}
	return t, t.Validate()
}

// narrowInt128 returns an int128 column as int64 when every value fits.
// DuckDB's sum() over integers answers HUGEINT to guard against overflow, not
// because the values need 128 bits; a block that reads a sum keeps getting
// int64, and only values that do need more arrive as int128 (never rounded,
// never refused).
func narrowInt128(c *sdk.Column) *sdk.Column {
	bigs := c.BigInts()
	out := make([]int64, len(bigs))
	for i, b := range bigs {
		if b == nil {
			continue
		}
		if !b.IsInt64() {
			return c
		}
		out[i] = b.Int64()
	}
	return sdk.Int64sFrom(c.Name, out, c.Nulls())
}

func appendScanned(c *sdk.Column, kind scanKind, dbType string, v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	switch kind {
	case scanInt:
		i, err := toInt64(v)
		if err != nil {
			return err
		}
		c.AppendInt64(i)
	case scanUint:
		u, ok := v.(uint64)
		if !ok {
			return fmt.Errorf("got %T, want uint64", v)
		}
		c.AppendUint64(u)
	case scanBig:
		b, ok := v.(*big.Int)
		if !ok {
			return fmt.Errorf("got %T, want *big.Int", v)
		}
		c.AppendBigInt(b)
	case scanDecimal:
		d, ok := v.(duckdb.Decimal)
		if !ok {
			return fmt.Errorf("got %T, want a decimal", v)
		}
		return c.AppendDecimal(sdk.DecimalFromUnscaled(d.Value, d.Scale))
	case scanFloat:
		switch x := v.(type) {
		case float64:
			c.AppendFloat64(x)
		case float32:
			c.AppendFloat64(float64(x))
		default:
			return fmt.Errorf("got %T, want a float", v)
		}
	case scanTime:
		tm, ok := v.(time.Time)
		if !ok {
			return fmt.Errorf("got %T, want time.Time", v)
		}
		// The driver hands DATE and TIMESTAMP over as UTC times whose
		// reading is the date or wall time; AppendTime keeps that reading.
		c.AppendTime(tm.UTC())
	case scanBool:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("got %T, want bool", v)
		}
		c.AppendBool(b)
	default:
		c.AppendString(stringForm(v, dbType))
	}
	return nil
}

func toInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		if x > math.MaxInt64 {
			return 0, fmt.Errorf("value %d does not fit in int64", x)
		}
		return int64(x), nil
	}
	return 0, fmt.Errorf("got %T, want an integer", v)
}
