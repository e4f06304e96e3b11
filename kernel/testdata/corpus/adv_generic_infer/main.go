package main

import (
	"fmt"
	"strconv"
)

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
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

func Filter[S ~[]E, E any](s S, keep func(E) bool) S {
	var out S
	for _, e := range s {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

func Keys[M ~map[K]V, K comparable, V any](m M) int { return len(m) }

type IDs []int

func (ids IDs) Total() int { return Reduce(ids, 0, func(a, b int) int { return a + b }) }

func Zip[A, B any](as []A, bs []B) []struct {
	A A
	B B
} {
	n := min(len(as), len(bs))
	out := make([]struct {
		A A
		B B
	}, n)
	for i := range n {
		out[i].A, out[i].B = as[i], bs[i]
	}
	return out
}

func main() {
	strs := Map([]int{1, 2, 3}, strconv.Itoa)
	fmt.Printf("%q\n", strs)
	lens := Map(strs, func(s string) int { return len(s) * 10 })
	fmt.Println(lens)
	fmt.Println(Reduce(strs, "", func(a string, s string) string { return a + s }))
	evens := Filter(IDs{1, 2, 3, 4, 5, 6}, func(i int) bool { return i%2 == 0 })
	fmt.Printf("%T %v %d\n", evens, evens, evens.Total())
	fmt.Println(Keys(map[string]bool{"a": true, "b": false}))
	for _, p := range Zip([]string{"a", "b", "c"}, []float64{1.5, 2.5}) {
		fmt.Println(p.A, p.B)
	}
}
