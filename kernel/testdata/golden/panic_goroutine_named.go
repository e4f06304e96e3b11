package gonamed

import (
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func work(n int, done chan<- bool) {
	if n == 2 {
		panic("worker 2 failed")
	}
	done <- true
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	done := make(chan bool, 3)
	for i := 0; i < 3; i++ {
		go work(i, done)
	}
	for i := 0; i < 3; i++ {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	return sdk.NewTable(sdk.Int64("x")), nil
}
