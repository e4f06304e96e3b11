// Recovered panics whose values the interpreter passes through unchanged:
// integer division by zero, a nil map write, closing a closed channel, a
// standard package's panic, and the block's own panic values.
package main

import (
	"errors"
	"fmt"
	"strings"
)

func guard(name string, f func()) {
	defer func() {
		r := recover()
		fmt.Printf("%s: %v\n", name, r)
	}()
	f()
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("safeDiv(%d, %d): %v", a, b, r)
		}
	}()
	return a / b, nil
}

func main() {
	zero := 0
	guard("div", func() { _ = 10 / zero })
	guard("mod", func() { _ = 10 % zero })
	var m map[string]int
	guard("nilmap", func() { m["a"] = 1 })
	guard("closed", func() { c := make(chan int); close(c); close(c) })
	guard("repeat", func() { _ = strings.Repeat("x", -1) })
	guard("custom", func() { panic(fmt.Sprintf("bad row %d", 7)) })
	guard("errval", func() { panic(fmt.Errorf("wrapped: %w", errors.New("inner"))) })
	guard("int", func() { panic(42) })
	guard("none", func() {})
	fmt.Println(safeDiv(7, 2))
	fmt.Println(safeDiv(7, zero))
	fmt.Println(m["a"], len(m))
}
