package main

import "fmt"

func main() {
	fmt.Println("hello, world")
	fmt.Printf("%d %s %v %q %5.2f|%-4d|\n", 42, "go", []int{1, 2}, "quoted", 3.14159, 7)
}
