package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

var errQuota = errors.New("quota exceeded")

func worker(ctx context.Context, id int, jobs <-chan int, results chan<- string, wg *sync.WaitGroup) {
	defer wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-jobs:
			if !ok {
				return
			}
			results <- fmt.Sprintf("w%d:%d", id%1, j*j)
		}
	}
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	jobs := make(chan int)
	results := make(chan string, 100)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go worker(ctx, i, jobs, results, &wg)
	}
	for j := 1; j <= 6; j++ {
		jobs <- j
	}
	cancel()
	wg.Wait()
	close(results)
	var got []string
	for r := range results {
		got = append(got, r)
	}
	sort.Strings(got)
	fmt.Println(got, ctx.Err())

	ctx2, cancel2 := context.WithCancelCause(context.Background())
	cancel2(errQuota)
	<-ctx2.Done()
	fmt.Println(ctx2.Err(), context.Cause(ctx2), errors.Is(context.Cause(ctx2), errQuota))

	ctx3, cancel3 := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel3()
	select {
	case <-ctx3.Done():
		fmt.Println("timeout:", ctx3.Err(), errors.Is(ctx3.Err(), context.DeadlineExceeded))
	case <-time.After(5 * time.Second):
		fmt.Println("never")
	}

	type key string
	parent := context.WithValue(context.Background(), key("user"), "ann")
	child, stop := context.WithCancel(parent)
	fmt.Println(child.Value(key("user")), child.Value(key("other")), child.Value("user"))
	stop()
	stop()
	fmt.Println(child.Err(), parent.Err())
	after := context.AfterFunc(parent, func() { fmt.Println("never runs") })
	fmt.Println("stopped AfterFunc:", after())
	d, ok := ctx3.Deadline()
	fmt.Println(ok, !d.IsZero())
}
