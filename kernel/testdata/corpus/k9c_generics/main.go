package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
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

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

type List[T any] struct{ items []T }

func (l *List[T]) Push(v T)   { l.items = append(l.items, v) }
func (l *List[T]) Len() int   { return len(l.items) }
func (l *List[T]) At(i int) T { return l.items[i] }

func MaxOf[T cmp.Ordered](a T, rest ...T) T {
	m := a
	for _, r := range rest {
		if r > m {
			m = r
		}
	}
	return m
}

type Set[T comparable] map[T]struct{}

func (s Set[T]) Add(v T)      { s[v] = struct{}{} }
func (s Set[T]) Has(v T) bool { _, ok := s[v]; return ok }

var ErrEmpty = errors.New("empty")

func First[T any](xs []T) (T, error) {
	var zero T
	if len(xs) == 0 {
		return zero, ErrEmpty
	}
	return xs[0], nil
}

func main() {
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2}))
	fmt.Println(Map([]int{1, 2}, func(i int) string { return strings.Repeat("x", i) }))
	p := Pair[string, int]{"a", 1}
	fmt.Println(p.Key, p.Val)
	var l List[string]
	l.Push("x")
	l.Push("y")
	fmt.Println(l.Len(), l.At(1))
	fmt.Println(MaxOf(3, 9, 2), MaxOf("b", "a"))
	s := Set[int]{}
	s.Add(3)
	fmt.Println(s.Has(3), s.Has(4), len(s))
	_, err := First([]int{})
	v, _ := First([]string{"z"})
	fmt.Println(err, v)
	xs := []int{5, 2, 8, 1}
	slices.Sort(xs)
	idx, found := slices.BinarySearch(xs, 5)
	fmt.Println(xs, idx, found, slices.Index(xs, 8), slices.Contains(xs, 3), slices.Max(xs))
	words := []string{"bb", "a", "ccc", "dd"}
	sort.SliceStable(words, func(i, j int) bool { return len(words[i]) < len(words[j]) })
	fmt.Println(words, cmp.Compare(1, 2))
}
