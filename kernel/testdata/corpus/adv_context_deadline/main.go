package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func work(ctx context.Context, results chan<- int) error {
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case results <- i:
		}
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	results := make(chan int)
	errc := make(chan error, 1)
	go func() { errc <- work(ctx, results) }()
	for v := range results {
		if v == 3 {
			break
		}
	}
	err := <-errc
	fmt.Println(errors.Is(err, context.DeadlineExceeded), ctx.Err())
	_, has := ctx.Deadline()
	fmt.Println("has deadline:", has)

	parent, pcancel := context.WithCancelCause(context.Background())
	child, ccancel := context.WithCancel(parent)
	defer ccancel()
	pcancel(errors.New("shutting down"))
	<-child.Done()
	fmt.Println(child.Err(), context.Cause(child))

	type key string
	vctx := context.WithValue(context.Background(), key("user"), "ann")
	fmt.Println(vctx.Value(key("user")), vctx.Value(key("none")))

	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() { close(done) })
	<-done
	fmt.Println("afterfunc ran; stop returns", stop())
}
