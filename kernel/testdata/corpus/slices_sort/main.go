package main

import (
	"fmt"
	"slices"
	"strings"
)

func main() {
	xs := []int{5, 2, 8, 1, 9}
	slices.Sort(xs)
	fmt.Println(xs, slices.IsSorted(xs))
	words := strings.Fields("pear apple fig banana")
	slices.Sort(words)
	fmt.Println(words)
	slices.SortFunc(words, func(a, b string) int { return len(a) - len(b) })
	fmt.Println(words)
	i, ok := slices.BinarySearch(xs, 8)
	fmt.Println(i, ok)
	fmt.Println(slices.Max(xs), slices.Min(xs))
	slices.Reverse(xs)
	fmt.Println(xs)
}
