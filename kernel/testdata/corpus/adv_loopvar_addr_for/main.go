package main

import "fmt"

func main() {
	var ptrs []*int
	for i := 0; i < 3; i++ {
		ptrs = append(ptrs, &i)
	}
	for _, p := range ptrs {
		fmt.Print(*p, " ")
	}
	fmt.Println()
	type item struct{ n int }
	var items []*item
	for _, it := range []item{{1}, {2}, {3}} {
		items = append(items, &it)
	}
	fmt.Println(items[0].n, items[1].n, items[2].n)
}
