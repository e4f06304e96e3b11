package main

import "fmt"

func main() {
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
	n := 0
loop:
	if n < 3 {
		n++
		goto loop
	}
	fmt.Println(n)
	switch x := 5; {
	case x > 3:
		fmt.Println("big")
		fallthrough
	case x > 1:
		fmt.Println("medium")
	default:
		fmt.Println("small")
	}
}
