package main

import (
	"errors"
	"fmt"
)

func Countdown(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		defer fmt.Println("  countdown cleanup")
		for i := n; i > 0; i-- {
			if !yield(i) {
				fmt.Println("  stopped early at", i)
				return
			}
		}
	}
}

func Pairs(m []string) func(func(int, string) bool) {
	return func(yield func(int, string) bool) {
		for i, s := range m {
			if !yield(i, s) {
				return
			}
		}
	}
}

func find(words []string, target string) (idx int, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("find: %w", err)
		}
	}()
	for i, w := range Pairs(words) {
		if w == target {
			return i, nil
		}
	}
	return -1, errors.New("missing " + target)
}

func risky() (out []int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	for v := range Countdown(5) {
		if v == 2 {
			panic("two!")
		}
		out = append(out, v)
	}
	return out, nil
}

func main() {
	fmt.Println("full:")
	for v := range Countdown(3) {
		fmt.Println(" ", v)
	}
	fmt.Println("break:")
	for v := range Countdown(5) {
		if v == 3 {
			break
		}
		fmt.Println(" ", v)
	}
	fmt.Println("continue:")
	for v := range Countdown(4) {
		if v%2 == 0 {
			continue
		}
		fmt.Println(" ", v)
	}
	fmt.Println(find([]string{"a", "b", "c"}, "c"))
	fmt.Println(find([]string{"a"}, "z"))
	out, err := risky()
	fmt.Println(out, err)
outer:
	for i := range Countdown(2) {
		for j := range Countdown(2) {
			if j == 1 {
				continue outer
			}
			fmt.Println("  pair", i, j)
		}
	}
	sum := 0
	func() {
		for v := range Countdown(4) {
			defer func() { sum += v }()
		}
	}()
	fmt.Println("deferred sum", sum)
}
