package main

import "fmt"

type ID int

func lookup(m map[string]any, k string) {
	if n, ok := m[k].(int); ok {
		fmt.Println(k, "is an int:", n)
		return
	}
	fmt.Println(k, "is not an int")
}

func main() {
	m := map[string]any{"a": 1}
	m["b"] = ID(2)
	lookup(m, "a")
	lookup(m, "b")
}
