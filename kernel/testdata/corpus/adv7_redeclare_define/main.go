package main

import (
	"errors"
	"fmt"
	"strconv"
)

func validate(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	return nil
}

// process redeclares err with := (same scope, so the same variable) while a
// deferred closure reports it.
func process(s string) (n int, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("process %q: %w", s, err)
		}
	}()
	size, err := len(s), validate(s)
	if err != nil {
		return 0, err
	}
	n, err = strconv.Atoi(s)
	return n * size, err
}

func main() {
	fmt.Println(process("12"))
	fmt.Println(process(""))
	fmt.Println(process("x"))

	total := 0
	add := func(v int) { total += v }
	count, total := 2, 100
	add(5)
	fmt.Println(count, total)

	lo := 0
	plo := &lo
	lo, hi := 3, 9
	fmt.Println(*plo, lo, hi)

	a, b := 1, 2
	b, c := a+b, b*10
	fmt.Println(a, b, c)
}
