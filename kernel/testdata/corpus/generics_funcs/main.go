package main

import (
	"fmt"
	"strconv"
)

type Number interface {
	~int | ~int64 | ~float64
}

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

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

func main() {
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2.5}))
	strs := Map([]int{1, 2, 3}, strconv.Itoa)
	fmt.Println(strs, len(strs))
	fmt.Println(Filter([]int{1, 2, 3, 4}, func(x int) bool { return x%2 == 0 }))
	fmt.Println(Reduce([]string{"a", "b", "c"}, "", func(acc string, s string) string { return acc + s }))
}
