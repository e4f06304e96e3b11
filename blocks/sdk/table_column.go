package sdk

import (
	"fmt"
	"math"
	"math/big"
	"time"
)

// Column is one typed column of a Table. Exactly one of the value slices is
// used, the one matching Type; Nulls is nil until the first null is stored.
// The slices returned by the accessors are the column's own storage: read
// them freely, copy before changing.
type Column struct {
	Name string
	Type Type
	// Precision and Scale of a decimal column (zero otherwise).
	Precision, Scale uint8

	ints    []int64
	floats  []float64
	strings []string // string values, and the text of decimals
	bools   []bool
	times   []time.Time // instants, dates and wall times
	uints   []uint64
	bigs    []*big.Int
	nulls   []bool
}

// NewColumn returns an empty column of the given type (a decimal column
// needs NewFieldColumn, which carries precision and scale).
func NewColumn(name string, t Type) *Column { return &Column{Name: name, Type: t} }

// NewFieldColumn returns an empty column for f.
func NewFieldColumn(f Field) *Column {
	return &Column{Name: f.Name, Type: f.Type, Precision: f.Precision, Scale: f.Scale}
}

// Field is the column's name and type.
func (c *Column) Field() Field {
	return Field{Name: c.Name, Type: c.Type, Precision: c.Precision, Scale: c.Scale}
}

// Len is the number of values, nulls included.
func (c *Column) Len() int {
	switch c.Type {
	case TypeInt64:
		return len(c.ints)
	case TypeFloat64:
		return len(c.floats)
	case TypeString, TypeDecimal:
		return len(c.strings)
	case TypeBool:
		return len(c.bools)
	case TypeTime, TypeDate, TypeTimestamp:
		return len(c.times)
	case TypeUint64:
		return len(c.uints)
	case TypeInt128:
		return len(c.bigs)
	}
	return 0
}

// Int64s returns the values of an int64 column (zero where null).
func (c *Column) Int64s() []int64 { return c.ints }

// Float64s returns the values of a float64 column (zero where null).
func (c *Column) Float64s() []float64 { return c.floats }

// Strings returns the values of a string column ("" where null).
func (c *Column) Strings() []string { return c.strings }

// Bools returns the values of a bool column (false where null).
func (c *Column) Bools() []bool { return c.bools }

// Times returns the values of a time, date or timestamp column (the zero
// time where null).
func (c *Column) Times() []time.Time { return c.times }

// Uint64s returns the values of a uint64 column (zero where null).
func (c *Column) Uint64s() []uint64 { return c.uints }

// BigInts returns the values of an int128 column (nil where null).
func (c *Column) BigInts() []*big.Int { return c.bigs }

// Decimals returns the text of a decimal column's values ("" where null),
// each with exactly Scale digits after the point.
func (c *Column) Decimals() []string {
	if c.Type != TypeDecimal {
		return nil
	}
	return c.strings
}

// Nulls returns the null mask, or nil when the column has no nulls.
func (c *Column) Nulls() []bool { return c.nulls }

// IsNull reports whether row i is null.
func (c *Column) IsNull(i int) bool { return c.nulls != nil && c.nulls[i] }

// HasNulls reports whether any value is null.
func (c *Column) HasNulls() bool {
	for _, n := range c.nulls {
		if n {
			return true
		}
	}
	return false
}

// Value returns row i as int64, float64, string (string and decimal
// columns), bool, time.Time (time, date and timestamp columns), uint64,
// *big.Int or nil.
func (c *Column) Value(i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Type {
	case TypeInt64:
		return c.ints[i]
	case TypeFloat64:
		return c.floats[i]
	case TypeString, TypeDecimal:
		return c.strings[i]
	case TypeBool:
		return c.bools[i]
	case TypeTime, TypeDate, TypeTimestamp:
		return c.times[i]
	case TypeUint64:
		return c.uints[i]
	case TypeInt128:
		return c.bigs[i]
	}
	return nil
}

// AppendInt64 appends to an int64 column.
func (c *Column) AppendInt64(v int64) { c.ints = append(c.ints, v); c.markValid() }

// AppendFloat64 appends to a float64 column.
func (c *Column) AppendFloat64(v float64) { c.floats = append(c.floats, v); c.markValid() }

// AppendString appends to a string column.
func (c *Column) AppendString(v string) { c.strings = append(c.strings, v); c.markValid() }

// AppendBool appends to a bool column.
func (c *Column) AppendBool(v bool) { c.bools = append(c.bools, v); c.markValid() }

// AppendTime appends to a time column; to a date column it appends v's
// calendar date and to a timestamp column v's wall clock reading (see DateOf
// and WallOf).
func (c *Column) AppendTime(v time.Time) {
	switch c.Type {
	case TypeDate:
		v = DateOf(v)
	case TypeTimestamp:
		v = WallOf(v)
	}
	c.times = append(c.times, v)
	c.markValid()
}

// AppendUint64 appends to a uint64 column.
func (c *Column) AppendUint64(v uint64) { c.uints = append(c.uints, v); c.markValid() }

// AppendBigInt appends to an int128 column; nil is a null.
func (c *Column) AppendBigInt(v *big.Int) {
	if v == nil {
		c.AppendNull()
		return
	}
	c.bigs = append(c.bigs, v)
	c.markValid()
}

// AppendDecimal appends decimal text (see ParseDecimal) to a decimal column.
func (c *Column) AppendDecimal(s string) error {
	d, err := ParseDecimal(s, c.Precision, c.Scale)
	if err != nil {
		return fmt.Errorf("column %q: %w", c.Name, err)
	}
	c.strings = append(c.strings, d)
	c.markValid()
	return nil
}

// AppendNull appends a null.
func (c *Column) AppendNull() {
	n := c.Len()
	switch c.Type {
	case TypeInt64:
		c.ints = append(c.ints, 0)
	case TypeFloat64:
		c.floats = append(c.floats, 0)
	case TypeString, TypeDecimal:
		c.strings = append(c.strings, "")
	case TypeBool:
		c.bools = append(c.bools, false)
	case TypeTime, TypeDate, TypeTimestamp:
		c.times = append(c.times, time.Time{})
	case TypeUint64:
		c.uints = append(c.uints, 0)
	case TypeInt128:
		c.bigs = append(c.bigs, nil)
	}
	if c.nulls == nil {
		c.nulls = make([]bool, n, n+1)
	}
	c.nulls = append(c.nulls, true)
}

func (c *Column) markValid() {
	if c.nulls != nil {
		c.nulls = append(c.nulls, false)
	}
}

// Reserve grows the column's storage for n more values.
func (c *Column) Reserve(n int) {
	switch c.Type {
	case TypeInt64:
		c.ints = grow(c.ints, n)
	case TypeFloat64:
		c.floats = grow(c.floats, n)
	case TypeString, TypeDecimal:
		c.strings = grow(c.strings, n)
	case TypeBool:
		c.bools = grow(c.bools, n)
	case TypeTime, TypeDate, TypeTimestamp:
		c.times = grow(c.times, n)
	case TypeUint64:
		c.uints = grow(c.uints, n)
	case TypeInt128:
		c.bigs = grow(c.bigs, n)
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]T, len(s), len(s)+n)
	copy(out, s)
	return out
}

// appendAny appends v, converting Go's numeric types where no precision is
// lost. It is what Table.Append uses, so its errors name what was expected.
func (c *Column) appendAny(v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	switch c.Type {
	case TypeInt64:
		if i, ok := toInt64(v); ok {
			c.AppendInt64(i)
			return nil
		}
	case TypeFloat64:
		switch x := v.(type) {
		case float64:
			c.AppendFloat64(x)
			return nil
		case float32:
			c.AppendFloat64(float64(x))
			return nil
		}
		if i, ok := toInt64(v); ok {
			c.AppendFloat64(float64(i))
			return nil
		}
	case TypeString:
		if s, ok := v.(string); ok {
			c.AppendString(s)
			return nil
		}
	case TypeBool:
		if b, ok := v.(bool); ok {
			c.AppendBool(b)
			return nil
		}
	case TypeTime, TypeDate, TypeTimestamp:
		if t, ok := v.(time.Time); ok {
			c.AppendTime(t)
			return nil
		}
	case TypeUint64:
		switch x := v.(type) {
		case uint64:
			c.AppendUint64(x)
			return nil
		case uint:
			c.AppendUint64(uint64(x))
			return nil
		}
		if i, ok := toInt64(v); ok && i >= 0 {
			c.AppendUint64(uint64(i))
			return nil
		}
	case TypeInt128:
		if b, ok := bigIntOf(v); ok {
			c.AppendBigInt(b)
			return nil
		} else if b != nil {
			return fmt.Errorf("column %q is int128, %s is out of range", c.Name, b)
		}
	case TypeDecimal:
		d, ok, err := c.decimalOf(v)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		if ok {
			c.strings = append(c.strings, d)
			c.markValid()
			return nil
		}
	}
	return fmt.Errorf("column %q is %s, got %T", c.Name, c.Type, v)
}

func toInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint:
		if uint64(x) <= math.MaxInt64 {
			return int64(x), true
		}
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// The From constructors wrap existing slices (no copy); nulls may be nil.
// Decoders and host functions use them to build columns without per-row cost.

// Int64sFrom returns an int64 column over vals.
func Int64sFrom(name string, vals []int64, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeInt64, ints: vals, nulls: nulls}
}

// Float64sFrom returns a float64 column over vals.
func Float64sFrom(name string, vals []float64, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeFloat64, floats: vals, nulls: nulls}
}

// StringsFrom returns a string column over vals.
func StringsFrom(name string, vals []string, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeString, strings: vals, nulls: nulls}
}

// BoolsFrom returns a bool column over vals.
func BoolsFrom(name string, vals []bool, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeBool, bools: vals, nulls: nulls}
}

// TimesFrom returns a time column over vals.
func TimesFrom(name string, vals []time.Time, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeTime, times: vals, nulls: nulls}
}

// DatesFrom returns a date column over vals, which must be midnight UTC (DateOf).
func DatesFrom(name string, vals []time.Time, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeDate, times: vals, nulls: nulls}
}

// TimestampsFrom returns a timestamp column over vals, wall times in UTC (WallOf).
func TimestampsFrom(name string, vals []time.Time, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeTimestamp, times: vals, nulls: nulls}
}

// Uint64sFrom returns a uint64 column over vals.
func Uint64sFrom(name string, vals []uint64, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeUint64, uints: vals, nulls: nulls}
}

// BigIntsFrom returns an int128 column over vals (nil where null).
func BigIntsFrom(name string, vals []*big.Int, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeInt128, bigs: vals, nulls: nulls}
}

// DecimalsFrom returns a DECIMAL(precision, scale) column over vals, text
// already normalised by ParseDecimal.
func DecimalsFrom(name string, precision, scale uint8, vals []string, nulls []bool) *Column {
	return &Column{Name: name, Type: TypeDecimal, Precision: precision, Scale: scale, strings: vals, nulls: nulls}
}
