package main

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
)

type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

func Abs[T Integer](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

func Clamp[T cmp.Ordered](x, lo, hi T) T {
	return max(lo, min(x, hi))
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

type Score int8

func Keys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func Count[T comparable](xs []T, v T) int {
	n := 0
	for _, x := range xs {
		if x == v {
			n++
		}
	}
	return n
}

func Ptr[T any](v T) *T { return &v }

func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func main() {
	fmt.Println(Abs(-5), Abs(int8(-128)), Abs(Score(-3)), Abs(int64(7)))
	fmt.Println(Clamp(15, 0, 10), Clamp(-2.5, -1, 1), Clamp("m", "a", "k"))
	var st Stack[string]
	for _, w := range []string{"a", "b", "c"} {
		st.Push(w)
	}
	for st.Len() > 0 {
		v, _ := st.Pop()
		fmt.Print(v)
	}
	_, ok := st.Pop()
	fmt.Println(" empty pop ok:", ok)
	ints := &Stack[int]{}
	ints.Push(1)
	ints.Push(2)
	fmt.Println(ints.items, ints.Len())
	type Ages map[string]int
	fmt.Println(Keys(Ages{"zed": 1, "amy": 2, "bob": 3}))
	fmt.Println(Count([]string{"a", "b", "a"}, "a"), Count([]float64{1.5, 1.5}, 1.5))
	p := Ptr(42)
	*p++
	fmt.Println(*p, *Ptr("s"))
	fmt.Println(Must(strconv.Atoi("12")) + 1)
	defer func() { fmt.Println("recovered:", recover()) }()
	Must(strconv.Atoi("zz"))
}
