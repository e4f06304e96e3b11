package main

import (
	"fmt"
	"sort"
	"strings"
)

func makeCounter() (inc func() int, get func() int) {
	n := 0
	inc = func() int { n++; return n }
	get = func() int { return n }
	return
}

func compose(fs ...func(string) string) func(string) string {
	return func(s string) string {
		for _, f := range fs {
			s = f(s)
		}
		return s
	}
}

func memo(f func(int) int) func(int) int {
	cache := map[int]int{}
	return func(n int) int {
		if v, ok := cache[n]; ok {
			return v
		}
		v := f(n)
		cache[n] = v
		return v
	}
}

func main() {
	inc, get := makeCounter()
	inc()
	inc()
	fmt.Println(get(), inc(), get())

	var fs []func() string
	for i, w := range []string{"a", "b", "c"} {
		fs = append(fs, func() string { return strings.Repeat(w, i+1) })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()

	var adders []func(int) int
	for i := 0; i < 3; i++ {
		adders = append(adders, func(x int) int { return x + i })
	}
	for _, a := range adders {
		fmt.Print(a(10), " ")
	}
	fmt.Println()

	shout := compose(strings.TrimSpace, strings.ToUpper, func(s string) string { return s + "!" })
	fmt.Println(shout("  hello there "))

	calls := 0
	var fib func(int) int
	fib = memo(func(n int) int {
		calls++
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	})
	fmt.Println(fib(50), calls)

	words := []string{"banana", "Apple", "cherry", "apple", "Banana"}
	byLower := func(i, j int) bool {
		a, b := strings.ToLower(words[i]), strings.ToLower(words[j])
		if a != b {
			return a < b
		}
		return words[i] < words[j]
	}
	sort.Slice(words, byLower)
	fmt.Println(words)

	x := 1
	func() {
		x := 2
		x++
		_ = x
	}()
	func() { x++ }()
	fmt.Println(x)
}
