package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
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

func MaxOf[T cmp.Ordered](xs ...T) (T, error) {
	var zero T
	if len(xs) == 0 {
		return zero, errors.New("empty")
	}
	m := xs[0]
	for _, x := range xs[1:] {
		if x > m {
			m = x
		}
	}
	return m, nil
}

type Stack[T any] struct {
	items []T
}

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

func (s *Stack[T]) Len() int { return len(s.items) }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	out := map[K][]T{}
	for _, x := range xs {
		k := key(x)
		out[k] = append(out[k], x)
	}
	return out
}

type Celsius float64

func main() {
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2.25}), Sum([]Celsius{10, 20.5}))
	sq := Map([]int{1, 2, 3, 4}, func(x int) int { return x * x })
	fmt.Println(sq, Filter(sq, func(x int) bool { return x%2 == 0 }))
	words := Map([]string{"go", "is", "fun"}, strings.ToUpper)
	fmt.Println(words, Reduce(words, 0, func(n int, s string) int { return n + len(s) }))
	m, err := MaxOf(3, 9, 2)
	fmt.Println(m, err)
	s, err := MaxOf("pear", "apple", "zucchini")
	fmt.Println(s, err)
	_, err = MaxOf[int]()
	fmt.Println(err)

	var st Stack[string]
	for _, w := range []string{"a", "b", "c"} {
		st.Push(w)
	}
	for st.Len() > 0 {
		v, _ := st.Pop()
		fmt.Print(v, " ")
	}
	_, ok := st.Pop()
	fmt.Println(ok)

	ps := []Pair[string, int]{{"x", 1}, {"y", 2}, {"x", 3}}
	g := GroupBy(ps, func(p Pair[string, int]) string { return p.Key })
	fmt.Println(len(g["x"]), len(g["y"]), g["x"][1].Val)
}
