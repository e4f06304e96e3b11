package main

import (
	"fmt"
	"math"
)

// Limits computed from other constants, as a units or bounds table would.
const (
	minI64   = math.MinInt64
	span     = -minI64 // one past MaxInt64: fine as an untyped constant
	overflow = span > math.MaxInt64
)

func fits(name string, ok bool) {
	fmt.Printf("%-22s %t\n", name, ok)
}

func main() {
	fits("-MinInt64 == MinInt64", -minI64 == minI64)
	fits("-MinInt64 > 0", -minI64 > 0)
	fits("span > MaxInt64", span > math.MaxInt64)
	fits("span-1 == MaxInt64", span-1 == math.MaxInt64)
	fits("overflow const", overflow)
	var u uint64 = span
	fmt.Println(u, u/2 == span/2)
	if -minI64 < 0 {
		fmt.Println("negation wrapped")
	} else {
		fmt.Println("negation exact")
	}
	switch {
	case span-1 != math.MaxInt64:
		fmt.Println("not a power of two")
	default:
		fmt.Println("span is 1<<63")
	}
}
