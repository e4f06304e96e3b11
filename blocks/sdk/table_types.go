package sdk

import "fmt"

// Type is the type of a Table column. Each is one that every engine on the
// path (yaegi, the wire encoding, DuckDB, JSON, the browser) carries without
// loss: a DATE stays a date and a naive TIMESTAMP a wall time (neither is an
// instant), and integers beyond int64 or exact decimals never pass through a
// float.
type Type uint8

// Column types.
const (
	TypeInt64   Type = iota + 1
	TypeFloat64      // DOUBLE
	TypeString       // VARCHAR, and any DuckDB type without a counterpart, in its text form
	TypeBool         // BOOLEAN
	TypeTime         // an instant: TIMESTAMPTZ
	TypeDate         // a calendar date: DATE; values are time.Time at midnight UTC
	// TypeTimestamp is a wall time without a zone: TIMESTAMP. Values are
	// time.Time in UTC whose clock reading is the wall time.
	TypeTimestamp
	TypeUint64 // UBIGINT
	TypeInt128 // HUGEINT; values are *big.Int
	// TypeDecimal is DECIMAL(precision, scale). Values are decimal strings
	// with exactly scale digits after the point ("12.3400"), so no value
	// passes through a float.
	TypeDecimal
	typeEnd
)

var typeNames = [...]string{TypeInt64: "int64", TypeFloat64: "float64", TypeString: "string", TypeBool: "bool", TypeTime: "time",
	TypeDate: "date", TypeTimestamp: "timestamp", TypeUint64: "uint64", TypeInt128: "int128", TypeDecimal: "decimal"}

func (t Type) String() string {
	if t.Valid() {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Valid reports whether t is one of the column types.
func (t Type) Valid() bool { return t >= TypeInt64 && t < typeEnd }

// ParseType is the inverse of Type.String.
func ParseType(s string) (Type, error) {
	for t := TypeInt64; t < typeEnd; t++ {
		if typeNames[t] == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown column type %q (want int64, float64, string, bool, time, date, timestamp, uint64, int128 or decimal)", s)
}

// MaxDecimalPrecision is DuckDB's widest DECIMAL.
const MaxDecimalPrecision = 38

// Field names a column and its type; NewTable takes a list of them.
// Precision and Scale are set for decimals only.
type Field struct {
	Name      string
	Type      Type
	Precision uint8
	Scale     uint8
}

// Int64 declares an int64 column.
func Int64(name string) Field { return Field{Name: name, Type: TypeInt64} }

// Float64 declares a float64 column.
func Float64(name string) Field { return Field{Name: name, Type: TypeFloat64} }

// String declares a string column.
func String(name string) Field { return Field{Name: name, Type: TypeString} }

// Bool declares a bool column.
func Bool(name string) Field { return Field{Name: name, Type: TypeBool} }

// Time declares an instant column (TIMESTAMPTZ, microsecond precision, as in
// DuckDB). It is shown in the viewer's display zone, with its offset.
func Time(name string) Field { return Field{Name: name, Type: TypeTime} }

// Date declares a calendar date column (DATE). A time.Time appended to it
// keeps its own calendar date (its wall date in its location).
func Date(name string) Field { return Field{Name: name, Type: TypeDate} }

// Timestamp declares a wall-time column without a zone (TIMESTAMP). A
// time.Time appended to it keeps its wall clock reading in its location.
func Timestamp(name string) Field { return Field{Name: name, Type: TypeTimestamp} }

// Uint64 declares a uint64 column (UBIGINT).
func Uint64(name string) Field { return Field{Name: name, Type: TypeUint64} }

// Int128 declares a 128-bit integer column (HUGEINT) of *big.Int values.
func Int128(name string) Field { return Field{Name: name, Type: TypeInt128} }

// Decimal declares a DECIMAL(precision, scale) column: 1 <= precision <= 38,
// 0 <= scale <= precision.
func Decimal(name string, precision, scale int) Field {
	return Field{Name: name, Type: TypeDecimal, Precision: uint8(clampInt(precision, 0, 255)), Scale: uint8(clampInt(scale, 0, 255))}
}

func clampInt(v, lo, hi int) int { return max(lo, min(v, hi)) }

// SQLType is the DuckDB type of a field ("DECIMAL(38,10)").
func (f Field) SQLType() string {
	switch f.Type {
	case TypeInt64:
		return "BIGINT"
	case TypeFloat64:
		return "DOUBLE"
	case TypeBool:
		return "BOOLEAN"
	case TypeTime:
		return "TIMESTAMPTZ"
	case TypeDate:
		return "DATE"
	case TypeTimestamp:
		return "TIMESTAMP"
	case TypeUint64:
		return "UBIGINT"
	case TypeInt128:
		return "HUGEINT"
	case TypeDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", f.Precision, f.Scale)
	}
	return "VARCHAR"
}

// validDecimal reports what is wrong with a decimal's precision and scale.
func validDecimal(precision, scale uint8) error {
	if precision < 1 || precision > MaxDecimalPrecision || scale > precision {
		return fmt.Errorf("DECIMAL(%d,%d): want 1 <= precision <= %d and scale <= precision", precision, scale, MaxDecimalPrecision)
	}
	return nil
}
