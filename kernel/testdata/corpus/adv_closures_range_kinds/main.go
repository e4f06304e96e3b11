package main

import (
	"fmt"
	"sort"
)

func main() {
	m := map[string]int{"a": 1, "b": 2, "c": 3}
	var fs []func() string
	for k, v := range m {
		fs = append(fs, func() string { return fmt.Sprint(k, v) })
	}
	var got []string
	for _, f := range fs {
		got = append(got, f())
	}
	sort.Strings(got)
	fmt.Println(got)

	var rs []func() rune
	for _, r := range "héllo" {
		rs = append(rs, func() rune { return r })
	}
	for _, f := range rs {
		fmt.Print(string(f()))
	}
	fmt.Println()

	ch := make(chan int, 4)
	for i := range 4 {
		ch <- i * 10
	}
	close(ch)
	var cs []func() int
	for v := range ch {
		cs = append(cs, func() int { return v })
	}
	for _, f := range cs {
		fmt.Print(f(), " ")
	}
	fmt.Println()

	arr := [3]string{"x", "y", "z"}
	var ps []*string
	for i := range arr {
		ps = append(ps, &arr[i])
	}
	arr[1] = "Y"
	fmt.Println(*ps[0], *ps[1], *ps[2])
	var qs []*string
	for _, s := range arr {
		qs = append(qs, &s)
	}
	fmt.Println(*qs[0], *qs[1], *qs[2])
}
