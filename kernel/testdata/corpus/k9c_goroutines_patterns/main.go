package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

func producer(ctx context.Context, n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 0; i < n; i++ {
			select {
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for v := range in {
			out <- v * v
		}
	}()
	return out
}

func merge(cs ...<-chan int) <-chan int {
	out := make(chan int)
	var wg sync.WaitGroup
	for i := range cs {
		c := cs[i]
		wg.Add(1)
		go func(c <-chan int) {
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}(c)
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

type result struct {
	id  int
	err error
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := producer(ctx, 10)
	var got []int
	for v := range merge(square(src), square(producer(ctx, 3))) {
		got = append(got, v)
	}
	sort.Ints(got)
	fmt.Println(got)

	var ops atomic.Int64
	var mu sync.Mutex
	seen := map[int]bool{}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ops.Add(1)
			mu.Lock()
			seen[i%7] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(ops.Load(), len(seen))

	results := make(chan result, 5)
	for i := 1; i <= 5; i++ {
		go func() {
			var err error
			if i%2 == 0 {
				err = errors.New("even")
			}
			results <- result{i, err}
		}()
	}
	var rs []result
	for range 5 {
		rs = append(rs, <-results)
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].id < rs[b].id })
	for _, r := range rs {
		fmt.Print(r.id, ":", r.err, " ")
	}
	fmt.Println()

	tctx, tcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer tcancel()
	select {
	case <-tctx.Done():
		fmt.Println("timeout:", tctx.Err(), errors.Is(tctx.Err(), context.DeadlineExceeded))
	case <-time.After(5 * time.Second):
		fmt.Println("too slow")
	}

	var once sync.Once
	for range 3 {
		once.Do(func() { fmt.Println("once") })
	}
	sem := make(chan struct{}, 2)
	var active, maxActive atomic.Int32
	var wg2 sync.WaitGroup
	for range 6 {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			sem <- struct{}{}
			n := active.Add(1)
			for {
				m := maxActive.Load()
				if n <= m || maxActive.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			active.Add(-1)
			<-sem
		}()
	}
	wg2.Wait()
	fmt.Println("max active <= 2:", maxActive.Load() <= 2)
}
