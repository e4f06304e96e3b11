package main

import (
	"fmt"
	"time"
)

func main() {
	fast := make(chan string, 1)
	go func() { fast <- "fast" }()
	select {
	case v := <-fast:
		fmt.Println("got", v)
	case <-time.After(2 * time.Second):
		fmt.Println("timeout")
	}
	never := make(chan int)
	select {
	case <-never:
		fmt.Println("impossible")
	case <-time.After(10 * time.Millisecond):
		fmt.Println("timed out waiting")
	}
	select {
	case v := <-never:
		fmt.Println(v)
	default:
		fmt.Println("default")
	}
}
