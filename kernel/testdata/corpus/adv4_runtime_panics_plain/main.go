// Recovered runtime panics print Go's messages (printed as any, with no
// assertion to error): a loader that guards each
// row with recover logs them.
package main

import (
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

type rec struct{ v int }

func main() {
	xs := []int{1, 2, 3}
	i, j := 5, 1
	guard("index", func() { _ = xs[i] })
	guard("slice", func() { _ = xs[j:i] })
	guard("slice2", func() { _ = xs[2:j] })
	zero := 0
	guard("div", func() { _ = 10 / zero })
	var m map[string]int
	guard("nilmap", func() { m["a"] = 1 })
	var p *rec
	guard("nilptr", func() { _ = p.v })
	var a any = "text"
	guard("assert", func() { _ = a.(int) })
	guard("custom", func() { panic(fmt.Sprintf("bad row %d", 7)) })
	guard("errval", func() { panic(fmt.Errorf("wrapped: %w", fmt.Errorf("inner"))) })
	guard("str", func() { s := "abc"; _ = s[i] })
	guard("arr", func() { var arr [3]int; k := -1 + j*4; _ = arr[k] })
	guard("conv", func() { _ = make([]int, zero-1) })
	guard("closed", func() { c := make(chan int); close(c); close(c) })
	guard("repeat", func() { _ = strings.Repeat("x", -1) })
	guard("none", func() {})
}
