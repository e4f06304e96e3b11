package main

import (
	"fmt"
	"sort"
	"sync"
)

type Queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []int
	closed bool
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *Queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Signal()
}

func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *Queue) Get() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func main() {
	q := NewQueue()
	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[int][]int{}
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			for {
				v, ok := q.Get()
				if !ok {
					return
				}
				mu.Lock()
				got[v%3] = append(got[v%3], v)
				mu.Unlock()
			}
		}(w)
	}
	for i := 1; i <= 12; i++ {
		q.Put(i)
	}
	q.Close()
	wg.Wait()
	for k := 0; k < 3; k++ {
		sort.Ints(got[k])
		fmt.Println(k, got[k])
	}
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once", i) })
	}
	var rw sync.RWMutex
	shared := 0
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				rw.Lock()
				shared += i
				rw.Unlock()
			} else {
				rw.RLock()
				_ = shared
				rw.RUnlock()
			}
		}()
	}
	wg.Wait()
	fmt.Println("shared", shared)
}
