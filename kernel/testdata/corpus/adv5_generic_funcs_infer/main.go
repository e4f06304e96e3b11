package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	out := map[K][]T{}
	for _, x := range xs {
		k := key(x)
		out[k] = append(out[k], x)
	}
	return out
}

func TryMap[T, U any](xs []T, f func(T) (U, error)) ([]U, error) {
	var out []U
	var errs []error
	for i, x := range xs {
		u, err := f(x)
		if err != nil {
			errs = append(errs, fmt.Errorf("item %d: %w", i, err))
			continue
		}
		out = append(out, u)
	}
	return out, errors.Join(errs...)
}

type Number interface{ ~int | ~float64 }

func SumBy[T any, N Number](xs []T, f func(T) N) N {
	var s N
	for _, x := range xs {
		s += f(x)
	}
	return s
}

func Ptr[T any](v T) *T { return &v }

func Zip[A, B any](as []A, bs []B) [][2]any {
	n := min(len(as), len(bs))
	out := make([][2]any, n)
	for i := 0; i < n; i++ {
		out[i] = [2]any{as[i], bs[i]}
	}
	return out
}

func main() {
	words := strings.Fields("go rust zig c haskell ocaml")
	lens := Map(words, func(s string) int { return len(s) })
	fmt.Println(lens)
	long := Filter(words, func(s string) bool { return len(s) > 2 })
	fmt.Println(long, len(long))
	total := Reduce(lens, 0, func(a, n int) int { return a + n })
	joined := Reduce(words, "", func(a string, w string) string { return a + w[:1] })
	fmt.Println(total, joined)
	g := GroupBy(words, func(s string) int { return len(s) })
	fmt.Println(g[1], g[2], g[4], g[5], g[7], len(g))
	nums, err := TryMap([]string{"1", "x", "3", ""}, strconv.Atoi)
	fmt.Println(nums, err)
	fmt.Println(SumBy(words, func(s string) float64 { return float64(len(s)) / 2 }))
	p := Ptr(42)
	q := Ptr("s")
	*p++
	fmt.Println(*p, *q)
	fmt.Println(Zip(words[:3], lens))
	upper := Map(Map(words, strings.ToUpper), func(s string) []byte { return []byte(s)[:1] })
	fmt.Printf("%s\n", upper)
}
