package main

import (
	"fmt"
	"strings"
)

// Function values print as their address: different functions print
// different addresses, one function the same one each time.

func add(a, b int) int { return a + b }
func sub(a, b int) int { return a - b }

type op struct {
	name string
	fn   func(int, int) int
}

func main() {
	f, g := add, sub
	fmt.Println(fmt.Sprint(f) == fmt.Sprint(g))
	fmt.Println(fmt.Sprint(f) == fmt.Sprint(add))
	fmt.Println(fmt.Sprintf("%p", add) == fmt.Sprintf("%p", sub))
	fmt.Println(strings.HasPrefix(fmt.Sprint(f), "0x"))
	ops := []op{{"add", add}, {"sub", sub}}
	fmt.Println(fmt.Sprint(ops[0]) == fmt.Sprint(ops[1]))
	fmt.Printf("%T\n", f)
	fmt.Println(f(3, 4), g(3, 4))
}
