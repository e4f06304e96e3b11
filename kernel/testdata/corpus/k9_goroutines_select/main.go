package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

type result struct {
	id  int
	val string
	err error
}

func fetch(ctx context.Context, id int, ready <-chan struct{}) (string, error) {
	select {
	case <-ready:
		return fmt.Sprintf("item-%d", id), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func main() {
	// Three fetches can finish, one never does: once three results are in,
	// the rest is cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	now, never := make(chan struct{}), make(chan struct{})
	close(now)
	readies := []chan struct{}{now, now, never, now}
	out := make(chan result)
	var wg sync.WaitGroup
	for i := range readies {
		wg.Add(1)
		go func(i int, r <-chan struct{}) {
			defer wg.Done()
			v, err := fetch(ctx, i, r)
			out <- result{i, v, err}
		}(i, readies[i])
	}
	go func() { wg.Wait(); close(out) }()
	var got []result
	for r := range out {
		got = append(got, r)
		if len(got) == 3 {
			cancel()
		}
	}
	sort.Slice(got, func(a, b int) bool { return got[a].id < got[b].id })
	for _, r := range got {
		fmt.Println(r.id, r.val, r.err, errors.Is(r.err, context.Canceled))
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer dcancel()
	_, err := fetch(dctx, 9, never)
	fmt.Println(err, errors.Is(err, context.DeadlineExceeded))

	sem := make(chan struct{}, 2)
	var mu sync.Mutex
	active, peak := 0, 0
	var wg2 sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			sem <- struct{}{}
			mu.Lock()
			active++
			if active > peak {
				peak = active
			}
			mu.Unlock()
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			active--
			mu.Unlock()
			<-sem
		}()
	}
	wg2.Wait()
	fmt.Println("peak <= 2:", peak <= 2)

	ticks := time.NewTicker(time.Millisecond)
	defer ticks.Stop()
	done := make(chan struct{})
	go func() { time.Sleep(20 * time.Millisecond); close(done) }()
	n := 0
loop:
	for {
		select {
		case <-ticks.C:
			n++
		case <-done:
			if n > 0 { // select picks at random when both are ready
				break loop
			}
		}
	}
	fmt.Println("ticked:", n > 0)

	ch := make(chan int, 1)
	select {
	case v := <-ch:
		fmt.Println("got", v)
	default:
		fmt.Println("empty")
	}
	ch <- 7
	select {
	case v, ok := <-ch:
		fmt.Println("got", v, ok)
	case <-time.After(time.Second):
		fmt.Println("timeout")
	}
	close(ch)
	v, ok := <-ch
	fmt.Println(v, ok)
}
