package main

import (
	"errors"
	"fmt"
	"strconv"
)

var ErrEmpty = errors.New("empty input")

func parseAll(xs []string) (sum int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
			sum = -1
		}
	}()
	defer func() {
		if err != nil {
			err = fmt.Errorf("parseAll(%d items): %w", len(xs), err)
		}
	}()
	if len(xs) == 0 {
		return 0, ErrEmpty
	}
	for _, x := range xs {
		if x == "boom" {
			panic("boom token")
		}
		n, perr := strconv.Atoi(x)
		if perr != nil {
			return sum, perr
		}
		sum += n
	}
	return sum, nil
}

func counter() (n int) {
	defer func() { n *= 10 }()
	defer func() { n += 2 }()
	n = 1
	return n + 1
}

func order() {
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred", i)
	}
	x := 10
	defer fmt.Println("x at defer:", x)
	x = 20
	defer func() { fmt.Println("x in closure:", x) }()
	x = 30
}

type resource struct{ name string }

func (r *resource) Close() error {
	fmt.Println("close", r.name)
	if r.name == "b" {
		return errors.New("close b failed")
	}
	return nil
}

func useAll(names ...string) (err error) {
	for _, n := range names {
		r := &resource{n}
		defer func() {
			if cerr := r.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
	}
	return nil
}

func main() {
	fmt.Println(parseAll([]string{"1", "2", "3"}))
	fmt.Println(parseAll(nil))
	s, err := parseAll([]string{"1", "x"})
	fmt.Println(s, err)
	var ne *strconv.NumError
	fmt.Println(errors.As(err, &ne), ne.Func, ne.Num)
	_, err = parseAll(nil)
	fmt.Println(errors.Is(err, ErrEmpty))
	fmt.Println(parseAll([]string{"4", "boom"}))
	fmt.Println(counter())
	order()
	fmt.Println(useAll("a", "b", "c"))
}
