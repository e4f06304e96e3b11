package main

import (
	"fmt"
	"time"
)

type box struct{ V int }

var global string

func main() {
	// A plain local, assigned by a select case.
	c := make(chan int, 1)
	c <- 7
	var x int
	select {
	case x = <-c:
		fmt.Println("got", x)
	default:
		fmt.Println("nothing")
	}
	fmt.Println("x after select:", x)

	// Comma-ok into existing variables, on a closed channel.
	close(c)
	ok := true
	select {
	case x, ok = <-c:
		fmt.Println("closed:", x, ok)
	}

	// Into an element, a field, a pointer and a package variable.
	nums := make([]int, 3)
	b := box{}
	p := &box{}
	ints := make(chan int, 3)
	strs := make(chan string, 1)
	for i := range 3 {
		ints <- (i + 1) * 10
	}
	strs <- "hello"
	n := 0
	for i := 0; i < 4; i++ {
		select {
		case nums[n%3] = <-ints:
			n++
		case global = <-strs:
		}
	}
	fmt.Println(len(nums), global)
	sum := nums[0] + nums[1] + nums[2]
	fmt.Println("sum", sum)

	bc := make(chan int, 2)
	bc <- 1
	bc <- 2
	select {
	case b.V = <-bc:
	}
	select {
	case p.V = <-bc:
	}
	fmt.Println(b.V, p.V)

	// A loop collecting results with a timeout, the way servers do it.
	results := make(chan string)
	go func() {
		for _, s := range []string{"a", "b", "c"} {
			results <- s
		}
		close(results)
	}()
	var got []string
	var s string
	more := true
	timeout := time.After(5 * time.Second)
	for more {
		select {
		case s, more = <-results:
			if more {
				got = append(got, s)
			}
		case <-timeout:
			fmt.Println("timeout")
			more = false
		}
	}
	fmt.Println(got)

	// A variable of the enclosing function, from a closure.
	var last int
	func() {
		cc := make(chan int, 1)
		cc <- 42
		select {
		case last = <-cc:
		}
	}()
	fmt.Println("last", last)

	// An interface destination of a concrete channel.
	var any1 any
	ac := make(chan int, 1)
	ac <- 5
	select {
	case any1 = <-ac:
	}
	fmt.Printf("%v\n", any1)
}
