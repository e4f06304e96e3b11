package sdk

import "fmt"

// Type is the type of a Table column. The set is deliberately small: it is
// what every engine on the path (yaegi, the wire encoding, DuckDB, JSON, the
// browser) represents without loss.
type Type uint8

// Column types.
const (
	TypeInt64 Type = iota + 1
	TypeFloat64
	TypeString
	TypeBool
	TypeTime
)

var typeNames = [...]string{TypeInt64: "int64", TypeFloat64: "float64", TypeString: "string", TypeBool: "bool", TypeTime: "time"}

func (t Type) String() string {
	if t >= TypeInt64 && t <= TypeTime {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Valid reports whether t is one of the column types.
func (t Type) Valid() bool { return t >= TypeInt64 && t <= TypeTime }

// ParseType is the inverse of Type.String.
func ParseType(s string) (Type, error) {
	for t := TypeInt64; t <= TypeTime; t++ {
		if typeNames[t] == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown column type %q (want int64, float64, string, bool or time)", s)
}

// Field names a column and its type; NewTable takes a list of them.
type Field struct {
	Name string
	Type Type
}

// Int64 declares an int64 column.
func Int64(name string) Field { return Field{name, TypeInt64} }

// Float64 declares a float64 column.
func Float64(name string) Field { return Field{name, TypeFloat64} }

// String declares a string column.
func String(name string) Field { return Field{name, TypeString} }

// Bool declares a bool column.
func Bool(name string) Field { return Field{name, TypeBool} }

// Time declares a timestamp column (stored with microsecond precision, as in DuckDB).
func Time(name string) Field { return Field{name, TypeTime} }
