package sdk

import (
	"errors"
	"fmt"
)

// Table is a block's input and output: named, typed columns of equal length.
// Build it row by row with Append (or column by column for speed), read it by
// column. A wrong value in Append does not panic: the first such error sticks
// to the table (Err) and fails the run that returns it, naming row and column.
type Table struct {
	cols  []*Column
	index map[string]int
	err   error
}

// NewTable returns an empty table with the given columns.
func NewTable(fields ...Field) *Table {
	t := &Table{index: make(map[string]int, len(fields))}
	for _, f := range fields {
		t.AddColumn(NewFieldColumn(f))
	}
	return t
}

// AddColumn appends a column; a duplicate or empty name or an invalid type is recorded in Err.
func (t *Table) AddColumn(c *Column) {
	if t.index == nil {
		t.index = map[string]int{}
	}
	switch {
	case c.Name == "":
		t.setErr(fmt.Errorf("column %d has no name", len(t.cols)))
	case !c.Type.Valid():
		t.setErr(fmt.Errorf("column %q has invalid type %s", c.Name, c.Type))
	case c.Type == TypeDecimal && validDecimal(c.Precision, c.Scale) != nil:
		t.setErr(fmt.Errorf("column %q: %w", c.Name, validDecimal(c.Precision, c.Scale)))
	default:
		if _, dup := t.index[c.Name]; dup {
			t.setErr(fmt.Errorf("column %q declared twice", c.Name))
		}
	}
	t.index[c.Name] = len(t.cols)
	t.cols = append(t.cols, c)
}

// Append adds one row; values follow the column order. Numbers convert where
// no precision is lost (int to int64 or float64); nil is a null.
func (t *Table) Append(values ...any) {
	if t.err != nil {
		return
	}
	row := t.Len()
	if len(values) != len(t.cols) {
		t.setErr(fmt.Errorf("row %d: got %d values, want %d (%s)", row, len(values), len(t.cols), t.columnList()))
		return
	}
	for i, v := range values {
		if err := t.cols[i].appendAny(v); err != nil {
			// Undo the columns already written so the table stays rectangular.
			for j := 0; j < i; j++ {
				t.cols[j].truncate(row)
			}
			t.setErr(fmt.Errorf("row %d: %w", row, err))
			return
		}
	}
}

// Len is the number of rows.
func (t *Table) Len() int {
	if len(t.cols) == 0 {
		return 0
	}
	return t.cols[0].Len()
}

// Columns returns the columns in order.
func (t *Table) Columns() []*Column { return t.cols }

// Column returns the named column, or nil.
func (t *Table) Column(name string) *Column {
	if i, ok := t.index[name]; ok {
		return t.cols[i]
	}
	return nil
}

// Schema lists the columns' names and types.
func (t *Table) Schema() []Field {
	out := make([]Field, len(t.cols))
	for i, c := range t.cols {
		out[i] = c.Field()
	}
	return out
}

// Row returns row i as a slice of values (see Column.Value).
func (t *Table) Row(i int) []any {
	out := make([]any, len(t.cols))
	for j, c := range t.cols {
		out[j] = c.Value(i)
	}
	return out
}

// Err returns the first error recorded while building the table.
func (t *Table) Err() error { return t.err }

// Validate reports a building error or columns of unequal length.
func (t *Table) Validate() error {
	if t == nil {
		return errors.New("table is nil")
	}
	if t.err != nil {
		return t.err
	}
	n := t.Len()
	for _, c := range t.cols {
		if c.Len() != n {
			return fmt.Errorf("column %q has %d values, column %q has %d", c.Name, c.Len(), t.cols[0].Name, n)
		}
		if c.nulls != nil && len(c.nulls) != c.Len() {
			return fmt.Errorf("column %q: null mask has %d entries for %d values", c.Name, len(c.nulls), c.Len())
		}
	}
	return nil
}

func (t *Table) setErr(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *Table) columnList() string {
	s := ""
	for i, c := range t.cols {
		if i > 0 {
			s += ", "
		}
		s += c.Name + " " + c.Type.String()
		if c.Type == TypeDecimal {
			s += fmt.Sprintf("(%d,%d)", c.Precision, c.Scale)
		}
	}
	return s
}

func (c *Column) truncate(n int) {
	switch c.Type {
	case TypeInt64:
		c.ints = c.ints[:n]
	case TypeFloat64:
		c.floats = c.floats[:n]
	case TypeString, TypeDecimal:
		c.strings = c.strings[:n]
	case TypeBool:
		c.bools = c.bools[:n]
	case TypeTime, TypeDate, TypeTimestamp:
		c.times = c.times[:n]
	case TypeUint64:
		c.uints = c.uints[:n]
	case TypeInt128:
		c.bigs = c.bigs[:n]
	}
	if c.nulls != nil {
		c.nulls = c.nulls[:n]
	}
}
