package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

func slow(ctx context.Context) error {
	select {
	case <-time.After(time.Second):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := slow(ctx)
	fmt.Println(err, errors.Is(err, context.DeadlineExceeded))
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	fmt.Println(slow(ctx2))
	ctx3 := context.WithValue(context.Background(), "k", "v")
	fmt.Println(ctx3.Value("k"))
}
