package main

import (
	"fmt"
	"math"
)

func main() {
	a, b, c := 3, 9, -2
	fmt.Println(min(a, b, c), max(a, b, c), min(2.5, 1.5), max("x", "y"))
	fmt.Println(max(1, 2.5), min(math.Inf(1), 0))
	const small = min(10, 4)
	fmt.Println(small)
	m := map[string]int{"a": 1, "b": 2}
	clear(m)
	fmt.Println(len(m))
	s := []int{1, 2, 3}
	clear(s)
	fmt.Println(s, len(s))
}
