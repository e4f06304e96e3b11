package main

import (
	"fmt"
	"strings"
)

func try(name string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Printf("%-10s recovered: %v\n", name, r)
		}
	}()
	f()
	fmt.Printf("%-10s ok\n", name)
}

type node struct {
	val  int
	next *node
}

func main() {
	var m map[string]int
	try("nilmap", func() { m["a"] = 1 })
	try("nilread", func() { fmt.Println("read nil map:", m["a"], len(m)) })
	zero := 0
	try("divzero", func() { fmt.Println(10 / zero) })
	try("modzero", func() { fmt.Println(10 % zero) })
	xs := []int{1, 2, 3}
	i := 5
	try("index", func() { fmt.Println(xs[i]) })
	try("slice", func() { fmt.Println(xs[1:i]) })
	try("neg", func() { j := -1; fmt.Println(xs[j+0]) })
	var n *node
	try("nilptr", func() { fmt.Println(n.val) })
	try("nilnext", func() { n = &node{val: 1}; fmt.Println(n.next.val) })
	try("closed", func() {
		ch := make(chan int)
		close(ch)
		close(ch)
	})
	try("custom", func() { panic(fmt.Sprintf("bad value %d", 42)) })
	try("error", func() { panic(fmt.Errorf("wrapped: %w", fmt.Errorf("inner"))) })
	try("repeat", func() { fmt.Println(strings.Repeat("x", -1)) })
	var arr [4]int
	k := 4
	try("array", func() { arr[k%8] = 1 })
	try("conv", func() {
		var v any = "str"
		fmt.Println(v.(int))
	})
	fmt.Println("done", arr)
}
