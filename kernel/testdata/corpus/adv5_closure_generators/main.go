package main

import (
	"fmt"
	"strings"
)

func counter(start, step int) (next func() int, reset func()) {
	n := start
	next = func() int {
		v := n
		n += step
		return v
	}
	reset = func() { n = start }
	return
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

func compose[A, B, C any](f func(A) B, g func(B) C) func(A) C {
	return func(a A) C { return g(f(a)) }
}

type Accumulator func(float64) float64

func NewAccumulator() Accumulator {
	var sum float64
	return func(x float64) float64 {
		sum += x
		return sum
	}
}

func main() {
	next, reset := counter(10, 5)
	fmt.Println(next(), next(), next())
	reset()
	fmt.Println(next())

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
	fmt.Println(fib(51), calls)

	shout := compose(strings.TrimSpace, strings.ToUpper)
	exclaim := compose(shout, func(s string) string { return s + "!" })
	fmt.Println(exclaim("  hey there "), len(exclaim("")))

	acc := NewAccumulator()
	for _, x := range []float64{1, 2.5, -0.5} {
		fmt.Print(acc(x), " ")
	}
	fmt.Println()

	var handlers []func() string
	for _, name := range []string{"a", "b", "c"} {
		prefix := strings.Repeat(name, 2)
		handlers = append(handlers, func() string { return prefix + "-" + name })
	}
	for _, h := range handlers {
		fmt.Print(h(), " ")
	}
	fmt.Println()

	x := 1
	inc := func() { x++ }
	get := func() int { return x }
	inc()
	inc()
	x *= 10
	fmt.Println(get(), x)

	adders := map[string]func(int) int{}
	for i := 1; i <= 3; i++ {
		adders[fmt.Sprint("add", i)] = func(n int) int { return n + i }
	}
	fmt.Println(adders["add1"](10), adders["add2"](10), adders["add3"](10))
	defer func(v int) { fmt.Println("deferred saw", v, "now", x) }(x)
	x = 99
}
