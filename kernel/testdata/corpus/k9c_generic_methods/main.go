package main

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

type Stack[T any] struct{ items []T }

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

type Ordered interface {
	~int | ~float64 | ~string
}

type Tree[T Ordered] struct {
	root *node[T]
	size int
}

type node[T Ordered] struct {
	v    T
	l, r *node[T]
}

func (t *Tree[T]) Add(v T) {
	t.size++
	p := &t.root
	for *p != nil {
		if v < (*p).v {
			p = &(*p).l
		} else {
			p = &(*p).r
		}
	}
	*p = &node[T]{v: v}
}

func (t *Tree[T]) InOrder() []T {
	var out []T
	var walk func(n *node[T])
	walk = func(n *node[T]) {
		if n == nil {
			return
		}
		walk(n.l)
		out = append(out, n.v)
		walk(n.r)
	}
	walk(t.root)
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

func Keys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

type Result[T any] struct {
	Val T
	Err error
}

func Try[T any](f func() (T, error)) Result[T] {
	v, err := f()
	return Result[T]{v, err}
}

func main() {
	var s Stack[string]
	s.Push("a")
	s.Push("b")
	v, ok := s.Pop()
	fmt.Println(v, ok, len(s.items))
	var ints Stack[int]
	_, ok = ints.Pop()
	fmt.Println(ok)

	var t Tree[int]
	for _, x := range []int{5, 2, 8, 1} {
		t.Add(x)
	}
	fmt.Println(t.InOrder(), t.size)
	var ts Tree[string]
	for _, w := range strings.Fields("pear apple fig") {
		ts.Add(w)
	}
	fmt.Println(ts.InOrder())

	evens := Filter([]int{1, 2, 3, 4, 5, 6}, func(x int) bool { return x%2 == 0 })
	total := Reduce(evens, 0, func(a, x int) int { return a + x })
	joined := Reduce([]string{"a", "b"}, "", func(a string, x string) string { return a + x })
	fmt.Println(evens, total, joined)
	ks := Keys(map[string]int{"b": 1, "a": 2})
	sort.Strings(ks)
	fmt.Println(ks)
	r := Try(func() (int, error) { return 0, errors.New("nope") })
	r2 := Try(func() (string, error) { return "yes", nil })
	fmt.Println(r.Val, r.Err, r2.Val, r2.Err)
}
