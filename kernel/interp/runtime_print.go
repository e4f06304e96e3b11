package interp

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
)

// builtinPrint is what the builtins print and println write, to the
// block's stderr as Go writes them (lower_print.go): yaegi v0.16 wrote
// them to stdout, where they mixed into the block's output.
func (e *Executor) builtinPrint(newline bool, args ...any) {
	var b []byte
	for i, a := range args {
		if newline && i > 0 {
			b = append(b, ' ')
		}
		b = appendPrinted(b, a)
	}
	if newline {
		b = append(b, '\n')
	}
	var w io.Writer = os.Stderr
	if e.errOut != nil {
		w = e.errOut.w
	}
	_, _ = w.Write(b)
}

// appendPrinted formats one operand as the Go runtime's print does (Go
// 1.26: numbers as strconv writes them shortest, addresses in hex).
func appendPrinted(b []byte, a any) []byte {
	v := reflect.ValueOf(unwrapValue(a))
	switch v.Kind() {
	case reflect.Invalid:
		return append(b, "(0x0,0x0)"...)
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 32)
	case reflect.Float64:
		return strconv.AppendFloat(b, v.Float(), 'g', -1, 64)
	case reflect.Complex64:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 64)...)
	case reflect.Complex128:
		return append(b, strconv.FormatComplex(v.Complex(), 'g', -1, 128)...)
	case reflect.String:
		return append(b, v.String()...)
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return fmt.Appendf(b, "%#x", v.Pointer())
	case reflect.Slice:
		return fmt.Appendf(b, "[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
	}
	return fmt.Append(b, a)
}
