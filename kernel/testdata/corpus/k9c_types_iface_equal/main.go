package main

import "fmt"

type ID int

func main() {
	var v any = ID(4)
	fmt.Println(v == any(4), v == any(ID(4)))
	seen := map[any]bool{}
	seen[ID(1)] = true
	seen[1] = true
	fmt.Println(len(seen))
}
