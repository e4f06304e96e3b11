package main

import "fmt"

func main() {
	a := make(chan string, 2)
	a <- "x"
	close(a)
	cs := []chan string{a}
	for _, c := range cs {
		fmt.Println(cap(c))
	}
}
