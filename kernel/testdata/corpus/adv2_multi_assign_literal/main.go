package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

type Point struct{ X, Y int }

func dedupe(words []string) (int, []string) {
	dups, seen := 0, map[string]bool{}
	var out []string
	for _, w := range words {
		if seen[w] {
			dups++
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return dups, out
}

func parse(s string) (n int, err error) {
	if s == "" {
		n, err = -1, errors.New("empty")
		return
	}
	v, perr := strconv.Atoi(s)
	if perr != nil {
		return 0, perr
	}
	n, err = v, nil
	return
}

// latest keeps the previous and the current value of a stream of
// readings of any kind.
func latest(vals []any) (prev, cur any) {
	for _, v := range vals {
		prev, cur = cur, v
	}
	return
}

func main() {
	fmt.Println(dedupe(strings.Fields("a b a c b a")))

	var origin, path = Point{}, []Point{{1, 2}, {3, 4}}
	name, tags := "route", []string{"fast"}
	fmt.Println(origin, path, name, tags)

	if total, parts := 10, []int{3, 3, 4}; len(parts) > 0 {
		sum := 0
		for _, p := range parts {
			sum += p
		}
		fmt.Println("parts add up:", sum == total, total)
	}

	switch level, limits := 2, map[int]string{1: "low", 2: "mid"}; level {
	case 2:
		fmt.Println("level", level, limits[level])
	default:
		fmt.Println("unexpected level", level)
	}

	for _, s := range []string{"42", "", "x"} {
		n, err := parse(s)
		fmt.Println(n, err)
	}

	var count int
	var buf []byte
	count, buf = 3, []byte("abc")
	fmt.Println(count, string(buf))

	p, c := latest([]any{1, "two", 3.0})
	fmt.Println(p, c)
	var first, second any = "a", "b"
	first, second = second, first
	fmt.Println(first, second)

	var lastErr error
	attempts := 0
	for _, ok := range []bool{false, false, true} {
		if ok {
			attempts, lastErr = attempts+1, nil
			break
		}
		attempts, lastErr = attempts+1, fmt.Errorf("attempt %d failed", attempts+1)
	}
	fmt.Println(attempts, lastErr)
}
