// A switch on an any with cases of concrete types compares the dynamic
// value; yaegi failed at run time ("reflect.Value.Convert") with no line.
// The kernel routes it to compiled.
package main

import "fmt"

func kind(v any) string {
	switch v {
	case nil:
		return "nil"
	case 0:
		return "zero int"
	case "":
		return "empty string"
	case true:
		return "true"
	}
	return fmt.Sprint("other ", v)
}

func main() {
	for _, v := range []any{nil, 0, "", true, 1, "x", 0.0, false} {
		fmt.Println(kind(v))
	}
	var e error
	switch e {
	case nil:
		fmt.Println("no error")
	}
}
