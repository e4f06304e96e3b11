package main

import "fmt"

func main() {
	for i := range 3 {
		fmt.Print(i, " ")
	}
	fmt.Println()
	total := 0
	for range 5 {
		total++
	}
	var n int64 = 4
	for i := range n {
		fmt.Printf("%T:%d ", i, i)
	}
	fmt.Println(total)
	var fs []func() int
	for i := range 3 {
		fs = append(fs, func() int { return i })
	}
	for _, f := range fs {
		fmt.Print(f())
	}
	fmt.Println()
}
