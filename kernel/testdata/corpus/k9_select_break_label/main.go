package main

import (
	"fmt"
	"time"
)

func main() {
	done := make(chan struct{})
	go func() { time.Sleep(20 * time.Millisecond); close(done) }()
	n := 0
loop:
	for {
		select {
		case <-done:
			break loop
		}
	}
	fmt.Println("ticked:", n >= 0)
	f := func() int {
		ch := make(chan int, 3)
		ch <- 1
		ch <- 2
		ch <- 3
		s := 0
	inner:
		for {
			select {
			case v := <-ch:
				s += v
				if v == 2 {
					break inner
				}
			}
		}
		return s
	}
	fmt.Println(f())
sel:
	select {
	case <-done:
		if n == 0 {
			break sel
		}
		fmt.Println("not here")
	}
	fmt.Println("end")
}
