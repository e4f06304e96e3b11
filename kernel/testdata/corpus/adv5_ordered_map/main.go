package main

import (
	"cmp"
	"fmt"
	"sort"
	"strings"
)

// OrderedMap keeps insertion order next to a lookup map.
type OrderedMap[K cmp.Ordered, V any] struct {
	keys []K
	vals map[K]V
}

func NewOrderedMap[K cmp.Ordered, V any]() *OrderedMap[K, V] {
	return &OrderedMap[K, V]{vals: make(map[K]V)}
}

func (m *OrderedMap[K, V]) Set(k K, v V) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *OrderedMap[K, V]) Get(k K) (V, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *OrderedMap[K, V]) Delete(k K) bool {
	if _, ok := m.vals[k]; !ok {
		return false
	}
	delete(m.vals, k)
	for i, kk := range m.keys {
		if kk == k {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
	return true
}

func (m *OrderedMap[K, V]) Len() int { return len(m.keys) }

func (m *OrderedMap[K, V]) Each(f func(K, V)) {
	for _, k := range m.keys {
		f(k, m.vals[k])
	}
}

func (m *OrderedMap[K, V]) SortedKeys() []K {
	out := make([]K, len(m.keys))
	copy(out, m.keys)
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func main() {
	m := NewOrderedMap[string, int]()
	for i, w := range strings.Fields("pear apple fig apple kiwi pear date") {
		old, _ := m.Get(w)
		m.Set(w, old+i)
	}
	m.Each(func(k string, v int) { fmt.Printf("%s=%d ", k, v) })
	fmt.Println()
	fmt.Println("deleted fig:", m.Delete("fig"), "deleted fig again:", m.Delete("fig"))
	fmt.Println("len", m.Len(), "sorted", m.SortedKeys())
	v, ok := m.Get("zzz")
	fmt.Printf("missing: %d %t\n", v, ok)

	scores := NewOrderedMap[int, []string]()
	scores.Set(3, []string{"c"})
	scores.Set(1, nil)
	s, _ := scores.Get(3)
	scores.Set(3, append(s, "cc"))
	scores.Each(func(k int, v []string) { fmt.Println(k, v, len(v)) })
	fmt.Println(scores.SortedKeys())
}
