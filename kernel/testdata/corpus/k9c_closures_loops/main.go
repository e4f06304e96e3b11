package main

import (
	"fmt"
	"sort"
)

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * 10 })
	}
	for _, v := range []int{7, 8} {
		fs = append(fs, func() int { return v })
	}
	for i := range 2 {
		fs = append(fs, func() int { return 100 + i })
	}
	m := map[string]int{"a": 1}
	for k, v := range m {
		fs = append(fs, func() int { return len(k) + v })
	}
	for _, r := range "hé" {
		fs = append(fs, func() int { return int(r) })
	}
	ch := make(chan int, 2)
	ch <- 5
	ch <- 6
	close(ch)
	for v := range ch {
		fs = append(fs, func() int { return v })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()

	// Closures counting, shared state.
	counter := func() func() int {
		c := 0
		return func() int { c++; return c }
	}
	c1, c2 := counter(), counter()
	fmt.Println(c1(), c1(), c2())

	// Pointers to range variables.
	var ps []*int
	for _, v := range []int{1, 2, 3} {
		ps = append(ps, &v)
	}
	for _, p := range ps {
		fmt.Print(*p, " ")
	}
	fmt.Println()

	// sort.Slice with a closure over the slice.
	people := []struct {
		Name string
		Age  int
	}{{"a", 30}, {"b", 20}, {"c", 30}, {"d", 10}}
	sort.SliceStable(people, func(i, j int) bool { return people[i].Age < people[j].Age })
	fmt.Println(people)

	// Recursive closure.
	var fib func(int) int
	fib = func(n int) int {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	fmt.Println(fib(15))
}
