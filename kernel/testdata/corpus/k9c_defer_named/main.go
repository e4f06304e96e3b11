package main

import (
	"errors"
	"fmt"
)

func triple() (n int) {
	defer func() { n *= 3 }()
	n = 2
	return n + 1
}

func order() {
	for _, s := range []string{"a", "b"} {
		fmt.Print(s)
	}
	defer fmt.Println(" deferred 1")
	defer fmt.Print(" deferred 2")
	x := 1
	defer fmt.Print(" x=", x)
	x = 2
	defer func() { fmt.Print(" closure x=", x) }()
	x = 3
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
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
	return errors.New("base")
}

type res struct{ name string }

func (r *res) Close() { fmt.Println("close", r.name) }

func use() {
	r := &res{"first"}
	defer r.Close()
	r = &res{"second"}
	defer r.Close()
}

func main() {
	fmt.Println(triple())
	order()
	fmt.Println(safeDiv(7, 2))
	fmt.Println(safeDiv(1, 0))
	fmt.Println(wrapErr())
	use()
}
