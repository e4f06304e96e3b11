package sdk

import (
	"fmt"
	"math"
	"time"
)

// Column is one typed column of a Table. Exactly one of the value slices is
// used, the one matching Type; Nulls is nil until the first null is stored.
// The slices returned by the accessors are the column's own storage: read
// them freely, copy before changing.
type Column struct {
	Name string
	Type Type

	ints    []int64
	floats  []float64
	strings []string
	bools   []bool
	times   []time.Time
	nulls   []bool
}

// NewColumn returns an empty column of the given type.
func NewColumn(name string, t Type) *Column { return &Column{Name: name, Type: t} }

// Len is the number of values, nulls included.
func (c *Column) Len() int {
	switch c.Type {
	case TypeInt64:
		return len(c.ints)
	case TypeFloat64:
		return len(c.floats)
	case TypeString:
		return len(c.strings)
	case TypeBool:
		return len(c.bools)
	case TypeTime:
		return len(c.times)
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

// Times returns the values of a time column (the zero time where null).
func (c *Column) Times() []time.Time { return c.times }

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

// Value returns row i as int64, float64, string, bool, time.Time or nil.
func (c *Column) Value(i int) any {
	if c.IsNull(i) {
		return nil
	}
	switch c.Type {
	case TypeInt64:
		return c.ints[i]
	case TypeFloat64:
		return c.floats[i]
	case TypeString:
		return c.strings[i]
	case TypeBool:
		return c.bools[i]
	case TypeTime:
		return c.times[i]
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

// AppendTime appends to a time column.
func (c *Column) AppendTime(v time.Time) { c.times = append(c.times, v); c.markValid() }

// AppendNull appends a null.
func (c *Column) AppendNull() {
	n := c.Len()
	switch c.Type {
	case TypeInt64:
		c.ints = append(c.ints, 0)
	case TypeFloat64:
		c.floats = append(c.floats, 0)
	case TypeString:
		c.strings = append(c.strings, "")
	case TypeBool:
		c.bools = append(c.bools, false)
	case TypeTime:
		c.times = append(c.times, time.Time{})
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
	case TypeString:
		c.strings = grow(c.strings, n)
	case TypeBool:
		c.bools = grow(c.bools, n)
	case TypeTime:
		c.times = grow(c.times, n)
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
	case TypeTime:
		if t, ok := v.(time.Time); ok {
			c.AppendTime(t)
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
