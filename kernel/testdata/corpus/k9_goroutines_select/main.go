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

func fetch(ctx context.Context, id int, delay time.Duration) (string, error) {
	select {
	case <-time.After(delay):
		return fmt.Sprintf("item-%d", id), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	delays := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 2 * time.Second, 1 * time.Millisecond}
	out := make(chan result)
	var wg sync.WaitGroup
	for i, d := range delays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := fetch(ctx, i, d)
			out <- result{i, v, err}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	var got []result
	for r := range out {
		got = append(got, r)
	}
	sort.Slice(got, func(a, b int) bool { return got[a].id < got[b].id })
	for _, r := range got {
		fmt.Println(r.id, r.val, r.err, errors.Is(r.err, context.DeadlineExceeded))
	}

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
			break loop
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
