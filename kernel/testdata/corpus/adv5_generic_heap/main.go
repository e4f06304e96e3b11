package main

import (
	"container/heap"
	"fmt"
	"strings"
)

// inner adapts a slice and a less function to heap.Interface.
type inner[T any] struct {
	items []T
	less  func(a, b T) bool
}

func (h *inner[T]) Len() int           { return len(h.items) }
func (h *inner[T]) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *inner[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *inner[T]) Push(x any)         { h.items = append(h.items, x.(T)) }
func (h *inner[T]) Pop() any {
	n := len(h.items)
	x := h.items[n-1]
	h.items = h.items[:n-1]
	return x
}

// PQ is a typed priority queue on top of container/heap.
type PQ[T any] struct{ h *inner[T] }

func NewPQ[T any](less func(a, b T) bool) PQ[T] {
	return PQ[T]{h: &inner[T]{less: less}}
}

func (q PQ[T]) Push(x T) { heap.Push(q.h, x) }
func (q PQ[T]) Pop() T   { return heap.Pop(q.h).(T) }
func (q PQ[T]) Len() int { return q.h.Len() }

type task struct {
	name string
	prio int
}

func main() {
	ints := NewPQ(func(a, b int) bool { return a < b })
	for _, x := range []int{5, 1, 9, 3, 7, 3} {
		ints.Push(x)
	}
	var got []string
	for ints.Len() > 0 {
		got = append(got, fmt.Sprint(ints.Pop()))
	}
	fmt.Println(strings.Join(got, " "))

	tasks := NewPQ(func(a, b task) bool {
		if a.prio != b.prio {
			return a.prio > b.prio
		}
		return a.name < b.name
	})
	tasks.Push(task{"write", 2})
	tasks.Push(task{"test", 3})
	tasks.Push(task{"deploy", 1})
	tasks.Push(task{"review", 3})
	for tasks.Len() > 0 {
		t := tasks.Pop()
		fmt.Printf("%-7s %d\n", t.name, t.prio)
	}

	// Dijkstra on a tiny graph with the same queue.
	type item struct {
		node string
		dist int
	}
	graph := map[string]map[string]int{
		"a": {"b": 7, "c": 9, "f": 14},
		"b": {"c": 10, "d": 15},
		"c": {"d": 11, "f": 2},
		"d": {"e": 6},
		"f": {"e": 9},
	}
	dist := map[string]int{"a": 0}
	q := NewPQ(func(x, y item) bool { return x.dist < y.dist })
	q.Push(item{"a", 0})
	for q.Len() > 0 {
		it := q.Pop()
		if it.dist > dist[it.node] {
			continue
		}
		for next, w := range graph[it.node] {
			nd := it.dist + w
			if old, ok := dist[next]; !ok || nd < old {
				dist[next] = nd
				q.Push(item{next, nd})
			}
		}
	}
	fmt.Println(dist)
}
