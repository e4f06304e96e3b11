// context deadlines and cancellation with select and default: a poller
// that never blocks, a worker that stops on cancel, values down the chain.
package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

type ctxKey string

func worker(ctx context.Context, in <-chan int, out chan<- string) {
	defer close(out)
	for {
		select {
		case <-ctx.Done():
			out <- "stopped: " + ctx.Err().Error()
			return
		case v, ok := <-in:
			if !ok {
				out <- "input closed"
				return
			}
			out <- fmt.Sprintf("%v:%d", ctx.Value(ctxKey("tenant")), v*v)
		}
	}
}

func main() {
	c := make(chan int, 1)
	select {
	case v := <-c:
		fmt.Println("got", v)
	default:
		fmt.Println("empty, no block")
	}
	c <- 1
	select {
	case c <- 2:
		fmt.Println("sent")
	default:
		fmt.Println("full, no block")
	}
	fmt.Println(<-c, len(c), cap(c))

	ctx := context.WithValue(context.Background(), ctxKey("tenant"), "acme")
	ctx, cancel := context.WithCancel(ctx)
	in := make(chan int)
	out := make(chan string)
	go worker(ctx, in, out)
	for i := 1; i <= 3; i++ {
		in <- i
		fmt.Println(<-out)
	}
	cancel()
	for s := range out {
		fmt.Println(s)
	}

	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	<-past.Done()
	fmt.Println(past.Err(), errors.Is(past.Err(), context.DeadlineExceeded))
	_, has := past.Deadline()
	fmt.Println(has)

	tctx, cancel3 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel3()
	select {
	case <-tctx.Done():
		fmt.Println("timeout:", tctx.Err())
	case <-time.After(5 * time.Second):
		fmt.Println("too slow")
	}
	cctx, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(errors.New("upstream failed"))
	fmt.Println(cctx.Err(), context.Cause(cctx))
	child, cancel4 := context.WithCancel(cctx)
	defer cancel4()
	fmt.Println(child.Err(), context.Cause(child))
	fmt.Println(ctx.Value(ctxKey("missing")), ctx.Value(ctxKey("tenant")))
}
