package main

import (
	"fmt"
	"slices"
)

func main() {
	a := []int{1, 2, 3, 4}
	b := slices.Clone(a)
	b[0] = 100
	fmt.Println(a, b, slices.Equal(a, b), slices.Equal(a, slices.Clone(a)))
	fmt.Println(slices.Index(a, 3), slices.Contains(a, 5))
	fmt.Println(slices.IndexFunc(a, func(x int) bool { return x > 2 }))
	a = slices.Insert(a, 1, 10, 11)
	fmt.Println(a)
	a = slices.Delete(a, 0, 2)
	fmt.Println(a)
	c := slices.Compact([]string{"a", "a", "b", "b", "a"})
	fmt.Println(c, len(c))
	d := slices.DeleteFunc([]int{1, 2, 3, 4, 5, 6}, func(x int) bool { return x%2 == 0 })
	fmt.Println(d)
	fmt.Println(slices.Compare([]int{1, 2}, []int{1, 3}), slices.Concat([]int{1}, []int{2, 3}))
}
