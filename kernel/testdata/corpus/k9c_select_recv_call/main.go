package main

import "fmt"

func slot(m map[string]int, k string) string { return k + "!" }

func main() {
	m := map[string]int{}
	c := make(chan int, 1)
	c <- 3
	select {
	case m[slot(m, "a")] = <-c:
	}
	fmt.Println(m)
}
