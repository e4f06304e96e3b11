package main

import (
	"fmt"
	"sort"
	"strings"
)

type Animal interface {
	Sound() string
	Name() string
}

type Base struct{ name string }

func (b Base) Name() string     { return b.name }
func (b Base) Sound() string    { return "..." }
func (b Base) Describe() string { return b.Name() + " says " + b.Sound() }

type Dog struct{ Base }

func (Dog) Sound() string { return "woof" }

type Loud struct {
	*Dog
	times int
}

func (l Loud) Sound() string { return strings.Repeat(l.Dog.Sound()+"!", l.times) }

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

type Wrapper struct {
	Counter
	label string
}

type Sizer interface{ Size() int }

type Box[T any] struct{ items []T }

func (b *Box[T]) Add(x T)   { b.items = append(b.items, x) }
func (b *Box[T]) Size() int { return len(b.items) }

func total[S Sizer](xs []S) int {
	n := 0
	for _, x := range xs {
		n += x.Size()
	}
	return n
}

type Ordered interface {
	~int | ~int64 | ~float64 | ~string
}

func SortedKeys[K Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func main() {
	d := Dog{Base{"rex"}}
	animals := []Animal{d, Base{"thing"}, Loud{&d, 2}}
	for _, a := range animals {
		fmt.Println(a.Name(), a.Sound())
	}
	fmt.Println(d.Describe()) // Base.Describe calls Base.Sound: no virtual dispatch
	w := Wrapper{label: "w"}
	w.Inc()
	w.Inc()
	w.Counter.Inc()
	fmt.Println(w.n, w.label)
	inc := w.Inc
	inc()
	fmt.Println(w.n)
	b1 := &Box[int]{}
	b1.Add(1)
	b1.Add(2)
	b2 := &Box[int]{}
	b2.Add(3)
	fmt.Println(total([]*Box[int]{b1, b2}))
	fmt.Println(SortedKeys(map[string]int{"b": 1, "a": 2, "c": 3}), SortedKeys(map[float64]bool{2.5: true, -1: false}))
	sum := Reduce([]int{1, 2, 3, 4}, 0, func(a, x int) int { return a + x })
	joined := Reduce([]string{"x", "y"}, "", func(a string, x string) string { return a + x })
	fmt.Println(sum, joined)
	type local struct{ A, B int }
	ls := []local{{2, 1}, {1, 2}}
	sort.Slice(ls, func(i, j int) bool { return ls[i].A < ls[j].A })
	fmt.Println(ls[0].A, ls[1].A, len(ls))
}
