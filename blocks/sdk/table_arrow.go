package sdk

import (
	"fmt"
	"reflect"
	"time"
)

// ArrowRecord is what FromArrow reads: an Arrow record batch
// (github.com/apache/arrow-go/v18/arrow.RecordBatch, or arrow.Record). Its
// Column method and the arrays' types are read by reflection, so the SDK
// imports no Arrow package and a block may use any arrow-go v18 release.
type ArrowRecord interface {
	NumRows() int64
	NumCols() int64
	ColumnName(i int) string
}

// FromArrow copies an Arrow record batch into a Table, typed by each
// column's Arrow type: signed and unsigned integers up to 32 bits are
// int64, uint64 uint64, float16/32/64 float64, decimal128/256(p,s) an
// exact decimal of that precision and scale, bool bool, date32/date64 a
// date, timestamp without a time zone a wall time and with one an instant,
// anything else (strings, binary, lists, structs) its text as Arrow prints
// it. Nulls stay nulls. The batch is not released.
func FromArrow(rec ArrowRecord) (*Table, error) {
	rv := reflect.ValueOf(rec)
	col := rv.MethodByName("Column")
	if !col.IsValid() || col.Type().NumIn() != 1 || col.Type().NumOut() != 1 {
		return nil, fmt.Errorf("FromArrow: %T has no Column(i int) method: pass an arrow-go v18 record batch", rec)
	}
	n, rows := int(rec.NumCols()), int(rec.NumRows())
	arrays := make([]arrowArray, n)
	fields := make([]Field, n)
	for i := 0; i < n; i++ {
		a, err := newArrowArray(col.Call([]reflect.Value{reflect.ValueOf(i)})[0])
		if err != nil {
			return nil, fmt.Errorf("FromArrow: column %q: %w", rec.ColumnName(i), err)
		}
		arrays[i] = a
		fields[i] = a.field(rec.ColumnName(i))
	}
	t := NewTable(fields...)
	if err := t.Err(); err != nil {
		return nil, err
	}
	cols := t.Columns()
	for j := 0; j < rows; j++ {
		for i, a := range arrays {
			if err := a.appendTo(cols[i], j); err != nil {
				return nil, fmt.Errorf("FromArrow: row %d, column %q (%s): %w", j, cols[i].Name, a.typ, err)
			}
		}
	}
	return t, nil
}

// arrowArray is one column of the batch, with what its type says.
type arrowArray struct {
	v, isNull, value, valueStr reflect.Value
	typ                        string // the Arrow type's name
	precision, scale           int
	unit                       time.Duration // a timestamp's unit
	zoned                      bool          // a timestamp with a time zone
}

func newArrowArray(v reflect.Value) (arrowArray, error) {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	a := arrowArray{v: v, isNull: v.MethodByName("IsNull"), value: v.MethodByName("Value"), valueStr: v.MethodByName("ValueStr")}
	dt := v.MethodByName("DataType")
	if !a.isNull.IsValid() || !a.valueStr.IsValid() || !dt.IsValid() {
		return a, fmt.Errorf("%s is not an Arrow array", v.Type())
	}
	d := dt.Call(nil)[0]
	if d.Kind() == reflect.Interface {
		d = d.Elem()
	}
	a.typ = d.MethodByName("Name").Call(nil)[0].String()
	s := reflect.Indirect(d)
	if s.Kind() == reflect.Struct {
		if p := s.FieldByName("Precision"); p.IsValid() && p.CanInt() {
			a.precision = int(p.Int())
		}
		if sc := s.FieldByName("Scale"); sc.IsValid() && sc.CanInt() {
			a.scale = int(sc.Int())
		}
		if u := s.FieldByName("Unit"); u.IsValid() && u.CanInt() {
			a.unit = [...]time.Duration{time.Second, time.Millisecond, time.Microsecond, time.Nanosecond}[u.Int()&3]
		}
		if z := s.FieldByName("TimeZone"); z.IsValid() && z.Kind() == reflect.String {
			a.zoned = z.String() != ""
		}
	}
	return a, nil
}

func (a arrowArray) field(name string) Field {
	switch a.typ {
	case "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32":
		return Int64(name)
	case "uint64":
		return Uint64(name)
	case "float16", "float32", "float64":
		return Float64(name)
	case "bool":
		return Bool(name)
	case "date32", "date64":
		return Date(name)
	case "timestamp":
		if a.zoned {
			return Time(name)
		}
		return Timestamp(name)
	case "decimal", "decimal128", "decimal256":
		if a.precision >= 1 && a.precision <= MaxDecimalPrecision && a.scale >= 0 && a.scale <= a.precision {
			return Decimal(name, a.precision, a.scale)
		}
	}
	return String(name)
}

func (a arrowArray) appendTo(c *Column, j int) error {
	idx := []reflect.Value{reflect.ValueOf(j)}
	if a.isNull.Call(idx)[0].Bool() {
		c.AppendNull()
		return nil
	}
	switch c.Type {
	case TypeString, TypeDecimal:
		s := a.valueStr.Call(idx)[0].String()
		if c.Type == TypeDecimal {
			return c.AppendDecimal(s)
		}
		c.AppendString(s)
		return nil
	}
	if !a.value.IsValid() {
		return fmt.Errorf("the array has no Value method")
	}
	v := a.value.Call(idx)[0]
	switch c.Type {
	case TypeInt64:
		if v.CanInt() {
			c.AppendInt64(v.Int())
		} else {
			c.AppendInt64(int64(v.Uint()))
		}
	case TypeUint64:
		c.AppendUint64(v.Uint())
	case TypeFloat64:
		if v.CanFloat() {
			c.AppendFloat64(v.Float())
		} else { // float16.Num
			c.AppendFloat64(v.MethodByName("Float32").Call(nil)[0].Float())
		}
	case TypeBool:
		c.AppendBool(v.Bool())
	case TypeDate:
		if a.typ == "date32" {
			c.AppendTime(time.Unix(v.Int()*86400, 0).UTC())
		} else {
			c.AppendTime(time.UnixMilli(v.Int()).UTC())
		}
	case TypeTime, TypeTimestamp:
		switch n := v.Int(); a.unit {
		case time.Second:
			c.AppendTime(time.Unix(n, 0).UTC())
		case time.Millisecond:
			c.AppendTime(time.UnixMilli(n).UTC())
		case time.Microsecond:
			c.AppendTime(time.UnixMicro(n).UTC())
		default:
			c.AppendTime(time.Unix(0, n).UTC())
		}
	default:
		return fmt.Errorf("no Table type for it")
	}
	return nil
}
