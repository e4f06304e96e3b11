package main

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
)

type Tree[T any] struct {
	Left, Right *Tree[T]
	Val         T
}

func (t *Tree[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		t.push(yield)
	}
}

func (t *Tree[T]) push(yield func(T) bool) bool {
	if t == nil {
		return true
	}
	return t.Left.push(yield) && yield(t.Val) && t.Right.push(yield)
}

func Insert[T interface{ ~int | ~string }](t *Tree[T], v T) *Tree[T] {
	if t == nil {
		return &Tree[T]{Val: v}
	}
	if v < t.Val {
		t.Left = Insert(t.Left, v)
	} else {
		t.Right = Insert(t.Right, v)
	}
	return t
}

func Filter[T any](seq iter.Seq[T], keep func(T) bool) iter.Seq[T] {
	return func(yield func(T) bool) {
		for v := range seq {
			if keep(v) && !yield(v) {
				return
			}
		}
	}
}

func Enumerate[T any](seq iter.Seq[T]) iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		i := 0
		for v := range seq {
			if !yield(i, v) {
				return
			}
			i++
		}
	}
}

func main() {
	var root *Tree[int]
	for _, v := range []int{50, 30, 70, 20, 40, 60, 80, 35} {
		root = Insert(root, v)
	}
	fmt.Println(slices.Collect(root.All()))
	for i, v := range Enumerate(Filter(root.All(), func(v int) bool { return v%20 != 0 })) {
		if i == 3 {
			break
		}
		fmt.Print(i, ":", v, " ")
	}
	fmt.Println()

	next, stop := iter.Pull(root.All())
	a, ok1 := next()
	b, ok2 := next()
	stop()
	c, ok3 := next()
	fmt.Println(a, ok1, b, ok2, c, ok3)

	counts := map[string]int{}
	for _, w := range strings.Fields("the cat and the hat and the bat") {
		counts[w]++
	}
	keys := slices.Sorted(maps.Keys(counts))
	fmt.Println(keys)
	for k, v := range maps.All(counts) {
		if v > 2 {
			fmt.Println("frequent:", k)
		}
	}
	fmt.Println(slices.Collect(maps.Values(map[int]int{1: 10})))
	for i, s := range slices.Backward([]string{"a", "b", "c"}) {
		fmt.Print(i, s, " ")
	}
	fmt.Println()
	for part := range strings.SplitSeq("a,b,,c", ",") {
		fmt.Printf("[%s]", part)
	}
	fmt.Println()
}
