package main

import (
	"fmt"
	"strings"
)

type Number interface {
	~int | ~int64 | ~float64
}

type Celsius float64
type Count int

func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

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

type Stringish interface{ ~string }

func Upper[S Stringish](s S) S { return S(strings.ToUpper(string(s))) }

type Name string

func (n Name) Hello() string { return "hi " + string(n) }

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

func (p Pair[K, V]) String() string { return fmt.Sprintf("%v=>%v", p.Key, p.Val) }

func main() {
	fmt.Println(Sum(Celsius(1.5), Celsius(2.25)))
	fmt.Println(Sum[Count](1, 2, 3))
	fmt.Println(Sum(1.0, 2))
	var s Stack[string]
	s.Push("a")
	s.Push("b")
	v, ok := s.Pop()
	fmt.Println(v, ok, s.Len())
	s.Pop()
	v, ok = s.Pop()
	fmt.Printf("%q %v\n", v, ok)
	n := Upper(Name("bob"))
	fmt.Println(n.Hello())
	fmt.Println(Pair[string, int]{"x", 1})
	ps := []Pair[int, []string]{{1, []string{"a"}}, {2, nil}}
	fmt.Println(ps)
}
