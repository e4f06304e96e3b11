package main

import (
	"fmt"
	"strings"
)

func main() {
	stock := map[string]int{"apple": 3, "pear": 0}
	for _, item := range strings.Fields("apple kiwi pear plum") {
		var n, known = stock[item]
		switch {
		case !known:
			fmt.Printf("%-5s unknown (n=%d)\n", item, n)
		case n == 0:
			fmt.Printf("%-5s sold out\n", item)
		default:
			fmt.Printf("%-5s %d left\n", item, n)
		}
	}
	inputs := []any{7, "seven", 7.0, 8}
	total := 0
	for _, in := range inputs {
		var n, ok = in.(int)
		fmt.Print(n, ok, " ")
		total += n
	}
	fmt.Println("total", total)
}
