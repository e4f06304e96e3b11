package main

// Found by issue k9: goroutines started in a range loop, each capturing the
// per-iteration i and a body-local channel, storing what they receive into
// a slice element. Interpreted it printed [0 0]: the loop variables were
// right, the lost write was `res[i] = <-c` (see k9b_recv_assign).

import (
	"fmt"
	"sync"
	"time"
)

type result struct {
	id, got int
}

func main() {
	var wg sync.WaitGroup
	chans := []chan int{make(chan int, 1), make(chan int, 1)}
	res2 := make([]int, 2)
	for i := range chans {
		c := chans[i]
		wg.Add(1)
		go func() { defer wg.Done(); time.Sleep(10 * time.Millisecond); c <- i; res2[i] = <-c }()
	}
	wg.Wait()
	fmt.Println(res2)

	// The same with a three-clause loop, a struct slot and a pointer.
	out := make([]result, 3)
	for i := 0; i < 3; i++ {
		c := make(chan int, 1)
		p := &out[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			c <- i * 10
			p.id = i
			p.got = <-c
		}()
	}
	wg.Wait()
	fmt.Println(out)

	// Workers that answer on a shared channel, collected by index.
	jobs := make(chan int)
	answers := make(chan [2]int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				answers <- [2]int{j, j * j}
			}
		}()
	}
	go func() {
		for j := 0; j < 5; j++ {
			jobs <- j
		}
		close(jobs)
	}()
	squares := make([][2]int, 5)
	for k := 0; k < 5; k++ {
		a := <-answers
		squares[a[0]] = a
	}
	wg.Wait()
	fmt.Println(squares)
}
