package main

import (
	"fmt"
	"sort"
	"strings"
)

type Map[K comparable, V any] map[K]V

func (m Map[K, V]) Keys() []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func (m Map[K, V]) GetOr(k K, def V) V {
	if v, ok := m[k]; ok {
		return v
	}
	return def
}

type List[T any] struct {
	items []T
}

func (l *List[T]) Add(xs ...T) { l.items = append(l.items, xs...) }
func (l *List[T]) Len() int    { return len(l.items) }
func (l *List[T]) At(i int) T  { return l.items[i] }

type Playlist struct {
	List[string]
	Name string
}

func (p *Playlist) String() string {
	return p.Name + ": " + strings.Join(p.items, ", ")
}

type Cache[K comparable, V any] struct {
	data  Map[K, V]
	order List[K]
	limit int
}

func NewCache[K comparable, V any](limit int) *Cache[K, V] {
	return &Cache[K, V]{data: Map[K, V]{}, limit: limit}
}

func (c *Cache[K, V]) Put(k K, v V) {
	if _, ok := c.data[k]; !ok {
		c.order.Add(k)
	}
	c.data[k] = v
	for c.order.Len() > c.limit {
		oldest := c.order.At(0)
		c.order.items = c.order.items[1:]
		delete(c.data, oldest)
	}
}

func main() {
	m := Map[string, int]{"b": 2, "a": 1}
	ks := m.Keys()
	sort.Strings(ks)
	fmt.Println(ks, m.GetOr("a", -1), m.GetOr("z", -1), len(m))

	p := &Playlist{Name: "mix"}
	p.Add("one", "two")
	p.List.Add("three")
	fmt.Println(p.String(), p.Len(), p.At(2))

	c := NewCache[string, []int](2)
	c.Put("x", []int{1})
	c.Put("y", nil)
	c.Put("x", []int{1, 1})
	c.Put("z", []int{3})
	keys := c.data.Keys()
	sort.Strings(keys)
	fmt.Println(keys, c.data["z"], c.order.items, c.order.Len())
	ints := Map[int, Map[string, bool]]{1: {"t": true}}
	fmt.Println(ints[1].GetOr("t", false), ints.GetOr(2, nil) == nil)
}
