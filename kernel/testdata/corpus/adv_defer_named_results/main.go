package main

import (
	"errors"
	"fmt"
)

func double() (n int) {
	defer func() { n *= 2 }()
	n = 5
	return n + 1
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
			q = -1
		}
	}()
	return a / b, nil
}

func wrapErr() (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("wrapErr: %w", err)
		}
	}()
	return errors.New("boom")
}

func counter() (s string) {
	for _, w := range []string{"a", "b"} {
		defer func() { s += w }()
	}
	return "x"
}

func main() {
	fmt.Println(double())
	fmt.Println(safeDiv(7, 2))
	fmt.Println(safeDiv(1, 0))
	fmt.Println(wrapErr())
	fmt.Println(counter())
}
