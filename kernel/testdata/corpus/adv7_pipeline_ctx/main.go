package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

func gen(ctx context.Context, nums ...int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for _, n := range nums {
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func square(ctx context.Context, in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for n := range in {
			select {
			case out <- n * n:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func merge(ctx context.Context, cs ...<-chan int) <-chan int {
	var wg sync.WaitGroup
	out := make(chan int)
	output := func(c <-chan int) {
		defer wg.Done()
		for n := range c {
			select {
			case out <- n:
			case <-ctx.Done():
				return
			}
		}
	}
	wg.Add(len(cs))
	for _, c := range cs {
		go output(c)
	}
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

func main() {
	ctx := context.Background()
	in := gen(ctx, 1, 2, 3, 4, 5, 6)
	c1 := square(ctx, in)
	c2 := square(ctx, in)
	var got []int
	for n := range merge(ctx, c1, c2) {
		got = append(got, n)
	}
	sort.Ints(got)
	fmt.Println(got)

	ctx2, cancel := context.WithCancel(context.Background())
	src := gen(ctx2, 10, 20, 30, 40)
	fmt.Println(<-src, <-src)
	cancel()
	<-ctx2.Done()
	fmt.Println(ctx2.Err(), errors.Is(ctx2.Err(), context.Canceled))

	ctx3, cancel3 := context.WithCancelCause(context.Background())
	cancel3(errors.New("shutting down"))
	fmt.Println(ctx3.Err(), context.Cause(ctx3))

	type key string
	vctx := context.WithValue(context.Background(), key("user"), "ann")
	vctx = context.WithValue(vctx, key("role"), "admin")
	fmt.Println(vctx.Value(key("user")), vctx.Value(key("role")), vctx.Value(key("none")))

	results := make(chan string, 3)
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- fmt.Sprintf("worker %d done", i)
		}()
	}
	wg.Wait()
	close(results)
	var lines []string
	for r := range results {
		lines = append(lines, r)
	}
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
}
