package warehouse

import (
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

// duckType is the DuckDB column type of an sdk type.
func duckType(t sdk.Type) string {
	switch t {
	case sdk.TypeInt64:
		return "BIGINT"
	case sdk.TypeFloat64:
		return "DOUBLE"
	case sdk.TypeString:
		return "VARCHAR"
	case sdk.TypeBool:
		return "BOOLEAN"
	case sdk.TypeTime:
		return "TIMESTAMPTZ"
	}
	return "VARCHAR" // unreachable: tables are validated first
}

func duckTypeInfo(t sdk.Type) (duckdb.TypeInfo, error) {
	switch t {
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
	}
	return nil, fmt.Errorf("column type %s has no DuckDB type", t)
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
	default: // sdk.TypeTime
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
)

// kindOf maps a DuckDB type name (as the driver reports it) to a column
// kind: integers to int64, floats and decimals to float64, dates and
// timestamps to time, booleans to bool, everything else to its string form.
func kindOf(dbType string) (scanKind, sdk.Type) {
	base := dbType
	if i := strings.IndexByte(base, '('); i >= 0 {
		base = base[:i]
	}
	switch strings.TrimSpace(base) {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
		"UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT":
		return scanInt, sdk.TypeInt64
	case "FLOAT", "DOUBLE", "DECIMAL":
		return scanFloat, sdk.TypeFloat64
	case "DATE", "TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE",
		"TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS":
		return scanTime, sdk.TypeTime
	case "BOOLEAN":
		return scanBool, sdk.TypeBool
	}
	return scanString, sdk.TypeString
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
	t := sdk.NewTable()
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
		t.AddColumn(sdk.NewColumn(name, st))
	}
	cols := t.Columns()
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
	return t, t.Validate()
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
	case scanFloat:
		switch x := v.(type) {
		case float64:
			c.AppendFloat64(x)
		case float32:
			c.AppendFloat64(float64(x))
		case duckdb.Decimal:
			c.AppendFloat64(x.Float64())
		default:
			return fmt.Errorf("got %T, want a float", v)
		}
	case scanTime:
		tm, ok := v.(time.Time)
		if !ok {
			return fmt.Errorf("got %T, want time.Time", v)
		}
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
	case *big.Int:
		if !x.IsInt64() {
			return 0, fmt.Errorf("value %s does not fit in int64", x)
		}
		return x.Int64(), nil
	}
	return 0, fmt.Errorf("got %T, want an integer", v)
}
