package main

import (
	"container/list"
	"container/ring"
	"fmt"
	"strings"
)

type LRU struct {
	cap   int
	ll    *list.List
	items map[string]*list.Element
}

type entry struct {
	key string
	val int
}

func NewLRU(n int) *LRU { return &LRU{cap: n, ll: list.New(), items: map[string]*list.Element{}} }

func (c *LRU) Get(k string) (int, bool) {
	if e, ok := c.items[k]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*entry).val, true
	}
	return 0, false
}

func (c *LRU) Put(k string, v int) {
	if e, ok := c.items[k]; ok {
		e.Value.(*entry).val = v
		c.ll.MoveToFront(e)
		return
	}
	c.items[k] = c.ll.PushFront(&entry{k, v})
	if c.ll.Len() > c.cap {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.items, last.Value.(*entry).key)
	}
}

func (c *LRU) Keys() string {
	var ks []string
	for e := c.ll.Front(); e != nil; e = e.Next() {
		ks = append(ks, e.Value.(*entry).key)
	}
	return strings.Join(ks, ",")
}

func main() {
	c := NewLRU(3)
	for i, k := range strings.Fields("a b c a d b e") {
		c.Put(k, i)
	}
	fmt.Println(c.Keys())
	v, ok := c.Get("b")
	fmt.Println(v, ok, c.Keys())
	_, ok = c.Get("a")
	fmt.Println(ok)

	l := list.New()
	l.PushBack(1)
	l.PushBack(2)
	e := l.PushFront(0)
	l.InsertAfter(99, e)
	for x := l.Front(); x != nil; x = x.Next() {
		fmt.Print(x.Value, " ")
	}
	fmt.Println(l.Len())

	r := ring.New(5)
	for i := 0; i < r.Len(); i++ {
		r.Value = i * i
		r = r.Next()
	}
	sum := 0
	r.Do(func(v any) { sum += v.(int) })
	fmt.Println("ring sum", sum)
	r = r.Move(2)
	fmt.Println(r.Value, r.Prev().Value)
	removed := r.Unlink(2)
	fmt.Println(removed.Len(), r.Len())
}
