// A failed type assertion's panic, recovered and printed: Go's value is a
// *runtime.TypeAssertionError ("interface conversion: interface {} is
// string, not int"); yaegi raised an error of its own that starts with the
// assertion's position ("19:9: interface conversion: ..."), so the
// printed line differed. The run is routed at the recover.
package main

import (
	"fmt"
	"strconv"
)

func field(row map[string]any, name string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("field %s: %v", name, r)
		}
	}()
	return row[name].(int), nil
}

func main() {
	row := map[string]any{"id": 7, "qty": "12", "price": 2.5}
	for _, k := range []string{"id", "qty", "price", "missing"} {
		n, err := field(row, k)
		fmt.Println(k, n, err)
	}
	s, _ := row["qty"].(string)
	q, _ := strconv.Atoi(s)
	fmt.Println("qty parsed", q)
}
