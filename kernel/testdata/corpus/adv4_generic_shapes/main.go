// Generic functions constrained by the block's own interfaces (Shape,
// Named), a generic list of a type with methods, and GroupBy with an
// inferred key type.
package main

import (
	"fmt"
	"sort"
	"strings"
)

type Shape interface{ Area() float64 }

type Rect struct{ W, H float64 }

func (r Rect) Area() float64 { return r.W * r.H }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func Total[T Shape](xs []T) (t float64) {
	for _, x := range xs {
		t += x.Area()
	}
	return
}

func Largest[T Shape](xs ...T) T {
	var best T
	for i, x := range xs {
		if i == 0 || x.Area() > best.Area() {
			best = x
		}
	}
	return best
}

type List[T any] struct{ items []T }

func (l *List[T]) Add(v T) { l.items = append(l.items, v) }
func (l *List[T]) Each(f func(int, T)) {
	for i, v := range l.items {
		f(i, v)
	}
}

type Named interface{ Name() string }

type user struct{ first, last string }

func (u user) Name() string { return u.first + " " + u.last }

func Names[T Named](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.Name()
	}
	sort.Strings(out)
	return out
}

func GroupBy[T any, K comparable](xs []T, key func(T) K) map[K][]T {
	out := map[K][]T{}
	for _, x := range xs {
		k := key(x)
		out[k] = append(out[k], x)
	}
	return out
}

func main() {
	fmt.Println(Total([]Rect{{1, 2}, {3, 4}}), Total([]Sq{{2}}), Total([]Shape{Rect{1, 1}, Sq{3}}))
	fmt.Println(Largest(Rect{1, 1}, Rect{2, 3}, Rect{1, 5}))
	var l List[Rect]
	for i := 1; i <= 3; i++ {
		l.Add(Rect{float64(i), 1})
	}
	l.Each(func(i int, r Rect) { fmt.Print(i, ":", r.Area(), " ") })
	fmt.Println()
	fmt.Println(Names([]user{{"b", "x"}, {"a", "y"}}))
	g := GroupBy(strings.Fields("apple avocado banana blueberry cherry"), func(s string) byte { return s[0] })
	fmt.Println(len(g), g['a'], g['b'], g['c'])
}
