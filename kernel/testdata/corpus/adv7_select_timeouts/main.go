package main

import (
	"fmt"
	"time"
)

func main() {
	ch := make(chan string, 1)
	select {
	case msg := <-ch:
		fmt.Println("got", msg)
	default:
		fmt.Println("no message")
	}
	ch <- "hi"
	select {
	case msg := <-ch:
		fmt.Println("got", msg)
	default:
		fmt.Println("no message")
	}
	full := make(chan int, 1)
	full <- 1
	select {
	case full <- 2:
		fmt.Println("sent")
	default:
		fmt.Println("channel full", len(full), cap(full))
	}
	never := make(chan int)
	select {
	case <-never:
		fmt.Println("impossible")
	case <-time.After(20 * time.Millisecond):
		fmt.Println("timeout")
	}
	ticker := time.NewTicker(5 * time.Millisecond)
	n := 0
	for range ticker.C {
		n++
		if n == 3 {
			ticker.Stop()
			break
		}
	}
	fmt.Println("ticks", n)
	timer := time.NewTimer(time.Hour)
	fmt.Println("stopped", timer.Stop())
	var nilCh chan int
	select {
	case v := <-nilCh:
		fmt.Println("nil recv", v)
	default:
		fmt.Println("nil channel blocks")
	}
	c := make(chan int, 3)
	c <- 1
	c <- 2
	close(c)
	v, ok := <-c
	fmt.Println(v, ok)
	v, ok = <-c
	fmt.Println(v, ok)
	v, ok = <-c
	fmt.Println(v, ok)
	results := make(chan int)
	go func() {
		defer close(results)
		for i := 0; i < 3; i++ {
			results <- i * 10
		}
	}()
	for {
		r, more := <-results
		if !more {
			break
		}
		fmt.Print(r, " ")
	}
	fmt.Println()
	quit := make(chan bool)
	counter := make(chan int)
	go func() {
		for i := 0; ; i++ {
			select {
			case counter <- i:
			case <-quit:
				close(counter)
				return
			}
		}
	}()
	fmt.Println(<-counter, <-counter, <-counter)
	quit <- true
	_, open := <-counter
	for open {
		_, open = <-counter
	}
	fmt.Println("closed")
}
