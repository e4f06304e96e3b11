package main

import (
	"errors"
	"fmt"
	"time"
)

var ErrTimeout = errors.New("timed out")

func fetch(delay time.Duration, v string) <-chan string {
	ch := make(chan string, 1)
	if delay < 0 {
		return ch // never answers
	}
	go func() {
		time.Sleep(delay)
		ch <- v
	}()
	return ch
}

func withTimeout(ch <-chan string, d time.Duration) (string, error) {
	select {
	case v := <-ch:
		return v, nil
	case <-time.After(d):
		return "", ErrTimeout
	}
}

func main() {
	v, err := withTimeout(fetch(0, "fast"), 2*time.Second)
	fmt.Println(v, err)
	v, err = withTimeout(fetch(-1, "never"), 10*time.Millisecond)
	fmt.Printf("%q %v %t\n", v, err, errors.Is(err, ErrTimeout))

	var nilCh chan int
	select {
	case x := <-nilCh:
		fmt.Println("impossible", x)
	case <-time.After(time.Millisecond):
		fmt.Println("nil channel never ready")
	}

	timer := time.NewTimer(time.Hour)
	fmt.Println("stopped before firing:", timer.Stop())
	done := make(chan struct{})
	results := make(chan int)
	go func() {
		defer close(results)
		for i := 1; i <= 3; i++ {
			select {
			case results <- i * 10:
			case <-done:
				return
			}
		}
	}()
	sum := 0
	for r := range results {
		sum += r
	}
	close(done)
	fmt.Println("sum", sum)

	tick := time.NewTicker(time.Millisecond)
	n := 0
	for range tick.C {
		n++
		if n == 3 {
			tick.Stop()
			break
		}
	}
	fmt.Println("ticks", n)
	first := make(chan string, 2)
	first <- "queued"
	select {
	case s := <-first:
		fmt.Println("ready wins:", s)
	default:
		fmt.Println("default")
	}
	select {
	case s := <-first:
		fmt.Println("got", s)
	default:
		fmt.Println("empty now: default")
	}
}
