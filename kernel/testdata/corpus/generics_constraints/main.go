package main

import (
	"cmp"
	"fmt"
)

func MaxOf[T cmp.Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

type Celsius float64

func Keys[K comparable, V any](m map[K]V) int { return len(m) }

func main() {
	fmt.Println(MaxOf(3, 7), MaxOf("a", "b"), MaxOf(Celsius(1.5), Celsius(-2)))
	fmt.Println(cmp.Compare(1, 2), cmp.Compare("b", "a"))
	fmt.Println(Keys(map[string]bool{"a": true, "b": false}))
}
