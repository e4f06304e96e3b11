package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type readOp struct {
	key  int
	resp chan int
}

type writeOp struct {
	key  int
	val  int
	resp chan bool
}

func main() {
	var readOps, writeOps atomic.Uint64
	reads := make(chan readOp)
	writes := make(chan writeOp)
	done := make(chan struct{})
	go func() {
		state := map[int]int{}
		for {
			select {
			case r := <-reads:
				r.resp <- state[r.key]
			case w := <-writes:
				state[w.key] += w.val
				w.resp <- true
			case <-done:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < 5; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				op := writeOp{key: i % 3, val: w + 1, resp: make(chan bool)}
				writes <- op
				<-op.resp
				writeOps.Add(1)
			}
		}()
	}
	wg.Wait()
	totals := make([]int, 3)
	for k := range totals {
		op := readOp{key: k, resp: make(chan int)}
		reads <- op
		totals[k] = <-op.resp
		readOps.Add(1)
	}
	close(done)
	fmt.Println("writes:", writeOps.Load(), "reads:", readOps.Load(), "totals:", totals)
}
