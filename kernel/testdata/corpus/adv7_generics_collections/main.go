package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

type Number interface {
	~int | ~int32 | ~int64 | ~float64
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

type Set[K comparable] struct{ m map[K]struct{} }

func NewSet[K comparable](items ...K) *Set[K] {
	s := &Set[K]{m: map[K]struct{}{}}
	for _, it := range items {
		s.Add(it)
	}
	return s
}

func (s *Set[K]) Add(k K)      { s.m[k] = struct{}{} }
func (s *Set[K]) Has(k K) bool { _, ok := s.m[k]; return ok }
func (s *Set[K]) Len() int     { return len(s.m) }
func (s *Set[K]) Union(o *Set[K]) *Set[K] {
	r := NewSet[K]()
	for k := range s.m {
		r.Add(k)
	}
	for k := range o.m {
		r.Add(k)
	}
	return r
}

func SortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

type Pair[A, B any] struct {
	First  A
	Second B
}

func Zip[A, B any](as []A, bs []B) []Pair[A, B] {
	n := min(len(as), len(bs))
	out := make([]Pair[A, B], n)
	for i := range n {
		out[i] = Pair[A, B]{as[i], bs[i]}
	}
	return out
}

type Meters float64

func MaxOf[T cmp.Ordered](first T, rest ...T) T {
	m := first
	for _, r := range rest {
		if r > m {
			m = r
		}
	}
	return m
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	g := map[K][]T{}
	for _, x := range xs {
		k := key(x)
		g[k] = append(g[k], x)
	}
	return g
}

func main() {
	ints := []int{1, 2, 3, 4, 5, 6}
	fmt.Println(Sum(ints), Sum([]float64{0.5, 0.25}), Sum([]Meters{1.5, 2}))
	sq := Map(ints, func(i int) int { return i * i })
	strs := Map(sq, func(i int) string { return fmt.Sprintf("<%d>", i) })
	fmt.Println(sq, strings.Join(strs, ""))
	evens := Filter(ints, func(i int) bool { return i%2 == 0 })
	fmt.Println(evens, Reduce(evens, "", func(a string, i int) string { return a + fmt.Sprint(i) }))
	s1 := NewSet(1, 2, 3)
	s2 := NewSet(3, 4)
	u := s1.Union(s2)
	fmt.Println(u.Len(), u.Has(4), u.Has(9), SortedKeys(u.m))
	words := NewSet(strings.Fields("a rose is a rose is a rose")...)
	fmt.Println(words.Len(), SortedKeys(words.m))
	ps := Zip([]string{"a", "b", "c"}, []int{1, 2})
	fmt.Println(len(ps), ps[1].First, ps[1].Second)
	fmt.Printf("%v %+v\n", ps, ps[0])
	fmt.Println(MaxOf(3, 9, 2), MaxOf("pear", "apple", "zoo"), MaxOf(2.5))
	g := GroupBy([]string{"apple", "avocado", "banana", "blueberry", "cherry"}, func(s string) byte { return s[0] })
	for _, k := range SortedKeys(g) {
		fmt.Println(string(k), g[k])
	}
	lens := GroupBy([]string{"go", "is", "fun", "and", "fast"}, func(s string) int { return len(s) })
	fmt.Println(lens)
}
