package main

import "fmt"

func main() {
	a := make(chan string, 2)
	a <- "x"
	close(a)
	cs := []chan string{a}
	for i := range cs {
		c := cs[i]
		fmt.Println(cap(c))
		for v := range c {
			fmt.Println(v)
		}
	}
}
