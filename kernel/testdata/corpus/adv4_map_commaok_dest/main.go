// A comma-ok map index, type assertion or receive whose value goes into a
// map element: dst[k], ok = src[k]. yaegi never wrote the element (dst
// stayed empty, with ok true); the block is refused at the statement.
package main

import "fmt"

func main() {
	src := map[string]int{"a": 1, "b": 2}
	dst := map[string]int{}
	var ok bool
	dst["a"], ok = src["a"]
	fmt.Println(dst, ok)
	var v any = 5
	dst["v"], ok = v.(int)
	fmt.Println(dst, ok)
	ch := make(chan int, 1)
	ch <- 7
	dst["c"], ok = <-ch
	fmt.Println(dst, ok)
}
