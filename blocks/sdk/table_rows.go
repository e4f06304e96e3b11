package sdk

import (
	"database/sql"
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// FromRows reads every row of rows (a database/sql query's result, from any
// driver: Postgres, MySQL, DuckDB) into a Table, one column per result
// column, typed by the database's own column type rather than by the Go
// values the driver happens to return: integers are int64 (UBIGINT uint64,
// HUGEINT int128), floating point float64, NUMERIC(p,s) an exact decimal
// of that precision and scale (never a float), BOOLEAN bool, DATE a date,
// TIMESTAMP a wall time, TIMESTAMPTZ an instant, Postgres' BYTEA \x and hex,
// anything else its text.
// A NUMERIC declared without a precision has no exact counterpart and is
// read as its text. NULLs stay nulls. It closes rows.
func FromRows(rows *sql.Rows) (*Table, error) {
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, fmt.Errorf("rows: %w", err)
	}
	fields := make([]Field, len(cts))
	bytea := make([]bool, len(cts))
	for i, ct := range cts {
		fields[i] = fieldOfColumn(ct)
		bytea[i] = strings.EqualFold(ct.DatabaseTypeName(), "BYTEA")
	}
	t := NewTable(fields...)
	if err := t.Err(); err != nil {
		return nil, err
	}
	cols := t.Columns()
	vals := make([]any, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for n := 0; rows.Next(); n++ {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("row %d: %w", n, err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok && bytea[i] {
				v = `\x` + hex.EncodeToString(b) // as Postgres prints it, not raw bytes in a text
			}
			if err := appendValue(cols[i], v); err != nil {
				return nil, fmt.Errorf("row %d: column %q (%s): %w", n, cols[i].Name, cts[i].DatabaseTypeName(), err)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rows: %w", err)
	}
	return t, nil
}

// fieldOfColumn maps a database column type name to a Table type. The
// names are those of Postgres (pgx, lib/pq), DuckDB and MySQL drivers.
func fieldOfColumn(ct *sql.ColumnType) Field {
	name := ct.Name()
	db := strings.ToUpper(ct.DatabaseTypeName())
	var args string
	if i := strings.IndexByte(db, '('); i > 0 && strings.HasSuffix(db, ")") { // DuckDB says DECIMAL(18,3)
		db, args = db[:i], db[i+1:len(db)-1]
	}
	switch db {
	case "INT", "INT2", "INT4", "INT8", "INTEGER", "BIGINT", "SMALLINT", "TINYINT", "MEDIUMINT", "SERIAL", "BIGSERIAL",
		"UTINYINT", "USMALLINT", "UINTEGER", "YEAR":
		return Int64(name)
	case "UBIGINT", "UNSIGNED BIGINT":
		return Uint64(name)
	case "HUGEINT":
		return Int128(name)
	case "FLOAT", "FLOAT4", "FLOAT8", "REAL", "DOUBLE", "DOUBLE PRECISION":
		return Float64(name)
	case "BOOL", "BOOLEAN":
		return Bool(name)
	case "DATE":
		return Date(name)
	case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE":
		return Timestamp(name)
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return Time(name)
	case "NUMERIC", "DECIMAL":
		p, s, ok := ct.DecimalSize()
		if !ok && args != "" {
			ps := strings.Split(args, ",")
			if len(ps) == 2 {
				var e1, e2 error
				p, e1 = strconv.ParseInt(strings.TrimSpace(ps[0]), 10, 64)
				s, e2 = strconv.ParseInt(strings.TrimSpace(ps[1]), 10, 64)
				ok = e1 == nil && e2 == nil
			}
		}
		if ok && p >= 1 && p <= MaxDecimalPrecision && s >= 0 && s <= p {
			return Decimal(name, int(p), int(s))
		}
	}
	return String(name)
}

// appendValue appends what the driver scanned into column c.
func appendValue(c *Column, v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	switch c.Type {
	case TypeInt64:
		n, err := rowInt64(v)
		if err != nil {
			return err
		}
		c.AppendInt64(n)
	case TypeUint64:
		switch x := v.(type) {
		case uint64:
			c.AppendUint64(x)
		case string:
			n, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return err
			}
			c.AppendUint64(n)
		default:
			n, err := rowInt64(v)
			if err != nil || n < 0 {
				return fmt.Errorf("want an unsigned integer, have %T %v", v, v)
			}
			c.AppendUint64(uint64(n))
		}
	case TypeInt128:
		switch x := v.(type) {
		case *big.Int:
			c.AppendBigInt(x)
		case string:
			n, ok := new(big.Int).SetString(x, 10)
			if !ok {
				return fmt.Errorf("want an integer, have %q", x)
			}
			c.AppendBigInt(n)
		default:
			n, err := rowInt64(v)
			if err != nil {
				return err
			}
			c.AppendBigInt(big.NewInt(n))
		}
	case TypeFloat64:
		switch x := v.(type) {
		case float64:
			c.AppendFloat64(x)
		case float32:
			c.AppendFloat64(float64(x))
		case string:
			f, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return err
			}
			c.AppendFloat64(f)
		default:
			n, err := rowInt64(v)
			if err != nil {
				return err
			}
			c.AppendFloat64(float64(n))
		}
	case TypeBool:
		switch x := v.(type) {
		case bool:
			c.AppendBool(x)
		case int64:
			c.AppendBool(x != 0) // MySQL's TINYINT(1)
		case string:
			b, err := strconv.ParseBool(x)
			if err != nil {
				return err
			}
			c.AppendBool(b)
		default:
			return fmt.Errorf("want a boolean, have %T", v)
		}
	case TypeTime, TypeDate, TypeTimestamp:
		x, ok := v.(time.Time)
		if !ok {
			return fmt.Errorf("want a time, have %T (for MySQL, open the database with parseTime=true)", v)
		}
		c.AppendTime(x)
	case TypeDecimal:
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case fmt.Stringer: // DuckDB's Decimal, big types
			s = x.String()
		case int64:
			s = strconv.FormatInt(x, 10)
		default:
			return fmt.Errorf("want an exact decimal, have %T (a float would lose digits)", v)
		}
		return c.AppendDecimal(s)
	default: // TypeString
		switch x := v.(type) {
		case string:
			c.AppendString(x)
		case time.Time:
			c.AppendString(x.Format(time.RFC3339Nano))
		default:
			c.AppendString(fmt.Sprint(x))
		}
	}
	return nil
}

func rowInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int8:
		return int64(x), nil
	case int:
		return int64(x), nil
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		if x > 1<<63-1 {
			return 0, fmt.Errorf("%d overflows int64", x)
		}
		return int64(x), nil
	case string:
		return strconv.ParseInt(x, 10, 64)
	}
	return 0, fmt.Errorf("want an integer, have %T", v)
}
