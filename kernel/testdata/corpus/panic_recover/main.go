package main

import (
	"errors"
	"fmt"
)

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func mustPositive(n int) int {
	if n < 0 {
		panic(errors.New("negative"))
	}
	return n
}

func main() {
	fmt.Println(safeDiv(10, 2))
	fmt.Println(safeDiv(1, 0))
	func() {
		defer func() {
			r := recover()
			fmt.Println("caught:", r)
		}()
		mustPositive(-1)
	}()
	fmt.Println("still running")
}
