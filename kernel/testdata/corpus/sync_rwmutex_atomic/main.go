package main

import (
	"fmt"
	"sync"
	"sync/atomic"
)

type Counter struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Counter) Inc(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k]++
}

func (c *Counter) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

func main() {
	c := &Counter{m: map[string]int{}}
	var n atomic.Int64
	var ops int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc("hits")
			n.Add(2)
			atomic.AddInt32(&ops, 1)
		}()
	}
	wg.Wait()
	fmt.Println(c.Get("hits"), n.Load(), atomic.LoadInt32(&ops))
}
