package main

import (
	"fmt"
	"sort"
	"strings"
)

type Middleware func(next func(string) string) func(string) string

func pipeline(ms ...Middleware) func(string) string {
	h := func(s string) string { return s }
	for i := len(ms) - 1; i >= 0; i-- {
		h = ms[i](h)
	}
	return h
}

func tag(name string) Middleware {
	return func(next func(string) string) func(string) string {
		return func(s string) string {
			return "<" + name + ">" + next(s) + "</" + name + ">"
		}
	}
}

func main() {
	h := pipeline(tag("b"), tag("i"), func(next func(string) string) func(string) string {
		return func(s string) string { return next(strings.ToUpper(s)) }
	})
	fmt.Println(h("hi"))

	var fns [][]func() string
	for i := 0; i < 2; i++ {
		var row []func() string
		for j := 0; j < 3; j++ {
			k := i*10 + j
			row = append(row, func() string { return fmt.Sprint(i, j, k) })
		}
		fns = append(fns, row)
	}
	for _, row := range fns {
		for _, f := range row {
			fmt.Print(f(), " ")
		}
	}
	fmt.Println()

	counter := func() func() int {
		c := 0
		return func() int {
			c++
			return c
		}
	}
	a, b := counter(), counter()
	fmt.Println(a(), a(), b(), a())

	byLen := map[int][]string{}
	add := func(ws ...string) {
		for _, w := range ws {
			byLen[len(w)] = append(byLen[len(w)], w)
		}
	}
	add("go", "is", "fun", "and", "fast")
	var keys []int
	for k := range byLen {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		fmt.Print(k, byLen[k], " ")
	}
	fmt.Println()

	var visit func(n int, depth int) []string
	visit = func(n, depth int) []string {
		if n <= 1 {
			return []string{strings.Repeat(".", depth) + fmt.Sprint(n)}
		}
		return append(visit(n/2, depth+1), visit(n-n/2, depth+1)...)
	}
	fmt.Println(visit(5, 0))
	x := 0
	defer func() { fmt.Println("deferred x", x) }()
	func() {
		x := 100
		x++
		_ = x
	}()
	x += 5
	incr := func(p *int) func() { return func() { *p *= 2 } }(&x)
	incr()
	incr()
}
