// Generic container types with methods, and generic functions over them.
package main

import (
	"cmp"
	"fmt"
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
func (s Stack[T]) Len() int { return len(s.items) }

type Queue[T any] struct{ head, tail []T }

func (q *Queue[T]) Put(v T) { q.tail = append(q.tail, v) }
func (q *Queue[T]) Get() (T, bool) {
	if len(q.head) == 0 {
		for len(q.tail) > 0 {
			n := len(q.tail) - 1
			q.head = append(q.head, q.tail[n])
			q.tail = q.tail[:n]
		}
	}
	var zero T
	if len(q.head) == 0 {
		return zero, false
	}
	n := len(q.head) - 1
	v := q.head[n]
	q.head = q.head[:n]
	return v, true
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func MaxBy[T any, K cmp.Ordered](xs []T, key func(T) K) (best T) {
	for i, x := range xs {
		if i == 0 || key(x) > key(best) {
			best = x
		}
	}
	return best
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	var s Stack[string]
	for _, w := range strings.Fields("load clean join write") {
		s.Push(w)
	}
	fmt.Println(s.Len())
	for {
		v, ok := s.Pop()
		if !ok {
			break
		}
		fmt.Print(v, " ")
	}
	fmt.Println()

	var q Queue[int]
	for i := 1; i <= 3; i++ {
		q.Put(i * i)
	}
	a, _ := q.Get()
	q.Put(100)
	b, _ := q.Get()
	c, _ := q.Get()
	d, _ := q.Get()
	_, ok := q.Get()
	fmt.Println(a, b, c, d, ok)

	pairs := []Pair[string, int]{{"a", 3}, {"b", 9}, {"c", 4}}
	best := MaxBy(pairs, func(p Pair[string, int]) int { return p.Val })
	fmt.Println(best.Key, best.Val)
	keys := Map(pairs, func(p Pair[string, int]) string { return strings.ToUpper(p.Key) })
	fmt.Println(keys, len(keys))
	var ps Stack[Pair[string, float64]]
	ps.Push(Pair[string, float64]{"pi", 3.14})
	top, _ := ps.Pop()
	fmt.Printf("%v %.1f\n", top.Key, top.Val)
}
