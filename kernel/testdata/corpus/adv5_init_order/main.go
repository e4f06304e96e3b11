package main

import (
	"fmt"
	"strings"
)

var (
	total   = sum(prices) + tax
	tax     = rate * 100
	rate    = 2
	prices  = []int{10, 20, 30}
	greeter = makeGreeter(defaultName)
	trace   []string
)

const defaultName = "world"

var registry = map[string]func(int) int{}

func sum(xs []int) int {
	trace = append(trace, "sum")
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func makeGreeter(n string) func() string {
	trace = append(trace, "greeter")
	return func() string { return "hello, " + n }
}

func init() {
	registry["double"] = func(x int) int { return x * 2 }
	trace = append(trace, "init1")
}

func init() {
	registry["square"] = func(x int) int { return x * x }
	trace = append(trace, fmt.Sprint("init2 sees ", len(registry)))
}

func main() {
	fmt.Println(total, tax, rate, greeter())
	fmt.Println(strings.Join(trace, ","))
	fmt.Println(registry["double"](4), registry["square"](4), len(registry))
}
