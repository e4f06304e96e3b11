package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

func main() {
	// Insert within capacity shifts in place: the backing array is shared.
	words := make([]string, 4, 6)
	copy(words, []string{"a", "b", "c", "d"})
	view := words[:cap(words)]
	words = slices.Insert(words, 1, "X", "Y")
	fmt.Println(words, view, len(words), cap(words))
	words = slices.Insert(words, 2, "Z") // over capacity: a new array
	view[0] = "changed"
	fmt.Println(words, view)

	buf := []int{1, 2, 3, 4, 5, 6}
	head := buf[:4]
	head = slices.Insert(head, 0, buf[2:4]...) // v overlaps s
	fmt.Println(head, buf)

	// Replace shrinking zeroes what it leaves behind.
	r := []int{1, 2, 3, 4, 5, 6}
	r2 := slices.Replace(r, 1, 4, 9)
	fmt.Println(r2, r)
	r3 := []string{"a", "b", "c", "d", "e"}
	r4 := slices.Replace(r3[:3], 1, 2, "x", "y", "z")
	fmt.Println(r4, r3)
	r5 := []int{1, 2, 3}
	fmt.Println(slices.Replace(r5, 1, 3, 7), r5)

	// Compact zeroes the tail and compares neighbours.
	c := []int{1, 1, 2, 2, 2, 3, 1}
	cc := slices.Compact(c)
	fmt.Println(cc, c)
	near := func(a, b int) bool { return a-b <= 1 && b-a <= 1 }
	fmt.Println(slices.CompactFunc([]int{1, 2, 3, 5, 6, 9}, near))
	names := []string{"Go", "go", "GO", "rust", "Rust"}
	fmt.Println(slices.CompactFunc(names, strings.EqualFold), names)

	var none [][]int
	cat := slices.Concat([]int{1}, nil, []int{2, 3})
	fmt.Println(cat, len(cat), slices.Concat(none...) == nil)

	fs := []float64{1, math.NaN(), 3}
	fmt.Println(slices.Max(fs), slices.Min(fs), slices.Max([]float64{2, 5, 1}), slices.Min([]float64{2, 5, 1}))
	fmt.Println(slices.Max([]string{"b", "c", "a"}), slices.Min([]int{4, -2, 8}))

	d := []int{0, 1, 2, 3, 4}
	d2 := slices.Delete(d, 1, 3)
	fmt.Println(d2, d)
	e := []int{5, 6, 7, 8}
	e2 := slices.DeleteFunc(e, func(v int) bool { return v%2 == 0 })
	fmt.Println(e2, e)
}
