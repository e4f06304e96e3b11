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

type result struct {
	job, worker, sq int
}

func worker(id int, jobs <-chan int, out chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		out <- result{j, id, j * j}
	}
}

func firstError(ctx context.Context, fns ...func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, len(fns))
	for _, f := range fns {
		go func() { errc <- f(ctx) }()
	}
	var first error
	for range fns {
		if err := <-errc; err != nil && first == nil {
			first = err
			cancel()
		}
	}
	return first
}

func main() {
	jobs := make(chan int, 100)
	out := make(chan result, 100)
	var wg sync.WaitGroup
	for w := 1; w <= 4; w++ {
		wg.Add(1)
		go worker(w, jobs, out, &wg)
	}
	for j := 1; j <= 20; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(out)
	sum, seen := 0, map[int]bool{}
	for r := range out {
		sum += r.sq
		seen[r.job] = true
	}
	fmt.Println("sum", sum, "jobs", len(seen))

	var hits atomic.Int64
	var wg2 sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg2.Add(1)
		go func(n int) {
			defer wg2.Done()
			hits.Add(int64(n))
		}(i)
	}
	wg2.Wait()
	fmt.Println("hits", hits.Load())

	var once sync.Once
	calls := 0
	for i := 0; i < 3; i++ {
		once.Do(func() { calls++ })
	}
	fmt.Println("once", calls)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
		fmt.Println("timeout:", ctx.Err(), errors.Is(ctx.Err(), context.DeadlineExceeded))
	case <-time.After(5 * time.Second):
		fmt.Println("too slow")
	}
	boom := errors.New("boom")
	err := firstError(context.Background(),
		func(ctx context.Context) error { return nil },
		func(ctx context.Context) error { return boom },
		func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
	)
	fmt.Println("first:", err)

	var mu sync.RWMutex
	cache := map[string]int{}
	var wg3 sync.WaitGroup
	keys := []string{"a", "b", "c", "a", "b", "a"}
	for _, k := range keys {
		wg3.Add(1)
		go func() {
			defer wg3.Done()
			mu.Lock()
			cache[k]++
			mu.Unlock()
		}()
	}
	wg3.Wait()
	mu.RLock()
	ks := make([]string, 0, len(cache))
	for k := range cache {
		ks = append(ks, fmt.Sprintf("%s=%d", k, cache[k]))
	}
	mu.RUnlock()
	sort.Strings(ks)
	fmt.Println(ks)
	results := make([]int, 5)
	var wg4 sync.WaitGroup
	for i := range results {
		wg4.Add(1)
		go func() {
			defer wg4.Done()
			results[i] = i * 10
		}()
	}
	wg4.Wait()
	fmt.Println(results)
}
