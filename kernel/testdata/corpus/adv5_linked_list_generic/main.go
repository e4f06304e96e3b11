package main

import (
	"fmt"
	"strings"
)

type node[T any] struct {
	val  T
	next *node[T]
}

type List[T any] struct {
	head, tail *node[T]
	size       int
}

func (l *List[T]) PushBack(v T) *List[T] {
	n := &node[T]{val: v}
	if l.tail == nil {
		l.head, l.tail = n, n
	} else {
		l.tail.next = n
		l.tail = n
	}
	l.size++
	return l
}

func (l *List[T]) PushFront(v T) *List[T] {
	l.head = &node[T]{val: v, next: l.head}
	if l.tail == nil {
		l.tail = l.head
	}
	l.size++
	return l
}

func (l *List[T]) Each(f func(int, T)) {
	i := 0
	for n := l.head; n != nil; n = n.next {
		f(i, n.val)
		i++
	}
}

func (l *List[T]) Reverse() {
	var prev *node[T]
	l.tail = l.head
	for cur := l.head; cur != nil; {
		next := cur.next
		cur.next = prev
		prev, cur = cur, next
	}
	l.head = prev
}

func (l *List[T]) String() string {
	var parts []string
	l.Each(func(_ int, v T) { parts = append(parts, fmt.Sprint(v)) })
	return "(" + strings.Join(parts, " -> ") + ")"
}

func Map[T, U any](l *List[T], f func(T) U) *List[U] {
	out := &List[U]{}
	l.Each(func(_ int, v T) { out.PushBack(f(v)) })
	return out
}

func Reduce[T, A any](l *List[T], init A, f func(A, T) A) A {
	acc := init
	l.Each(func(_ int, v T) { acc = f(acc, v) })
	return acc
}

func main() {
	l := &List[int]{}
	l.PushBack(2).PushBack(3).PushFront(1).PushBack(4)
	fmt.Println(l.String(), l.size)
	l.Reverse()
	fmt.Println(l.String(), l.head.val, l.tail.val)
	sq := Map(l, func(v int) string { return strings.Repeat("*", v) })
	fmt.Println(sq.String())
	fmt.Println(Reduce(l, 0, func(a, v int) int { return a + v }))
	fmt.Println(Reduce(sq, "", func(a string, v string) string { return a + fmt.Sprint(len(v)) }))
	empty := &List[float64]{}
	empty.Reverse()
	fmt.Println(empty.String(), empty.size, empty.head == nil)
	type pair struct {
		k string
		v int
	}
	pl := &List[pair]{}
	pl.PushBack(pair{"a", 1}).PushBack(pair{"b", 2})
	fmt.Println(pl.String())
	pl.Each(func(i int, p pair) { fmt.Printf("%d:%s=%d ", i, p.k, p.v) })
	fmt.Println()
}
