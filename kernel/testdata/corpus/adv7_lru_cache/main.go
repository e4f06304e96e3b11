package main

import (
	"container/list"
	"fmt"
	"strings"
)

type entry struct {
	key   string
	value int
}

type LRU struct {
	cap   int
	ll    *list.List
	items map[string]*list.Element
	evict func(k string, v int)
}

func NewLRU(n int, onEvict func(string, int)) *LRU {
	return &LRU{cap: n, ll: list.New(), items: make(map[string]*list.Element), evict: onEvict}
}

func (c *LRU) Get(k string) (int, bool) {
	if el, ok := c.items[k]; ok {
		c.ll.MoveToFront(el)
		return el.Value.(*entry).value, true
	}
	return 0, false
}

func (c *LRU) Put(k string, v int) {
	if el, ok := c.items[k]; ok {
		el.Value.(*entry).value = v
		c.ll.MoveToFront(el)
		return
	}
	el := c.ll.PushFront(&entry{k, v})
	c.items[k] = el
	if c.ll.Len() > c.cap {
		old := c.ll.Back()
		c.ll.Remove(old)
		e := old.Value.(*entry)
		delete(c.items, e.key)
		if c.evict != nil {
			c.evict(e.key, e.value)
		}
	}
}

func (c *LRU) String() string {
	var parts []string
	for el := c.ll.Front(); el != nil; el = el.Next() {
		e := el.Value.(*entry)
		parts = append(parts, fmt.Sprintf("%s=%d", e.key, e.value))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func main() {
	var evicted []string
	c := NewLRU(3, func(k string, v int) { evicted = append(evicted, fmt.Sprintf("%s:%d", k, v)) })
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("c", 3)
	fmt.Println(c.String())
	if v, ok := c.Get("a"); ok {
		fmt.Println("got a", v)
	}
	c.Put("d", 4)
	fmt.Println(c.String())
	_, ok := c.Get("b")
	fmt.Println("b present:", ok)
	c.Put("c", 30)
	c.Put("e", 5)
	c.Put("f", 6)
	fmt.Println(c.String(), evicted, len(c.items))
	l := list.New()
	for i := 1; i <= 5; i++ {
		l.PushBack(i)
	}
	for e := l.Front(); e != nil; {
		next := e.Next()
		if e.Value.(int)%2 == 0 {
			l.Remove(e)
		}
		e = next
	}
	l.PushFront(0)
	l.InsertAfter(99, l.Front())
	for e := l.Back(); e != nil; e = e.Prev() {
		fmt.Print(e.Value, " ")
	}
	fmt.Println(l.Len())
}
