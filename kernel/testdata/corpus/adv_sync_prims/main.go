package main

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
	done  bool
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
	q.done = true
	q.mu.Unlock()
	q.cond.Broadcast()
}

func (q *Queue) Get() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.done {
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
	var total atomic.Int64
	var hits atomic.Int32
	var flag atomic.Bool
	var wg sync.WaitGroup
	for i := 1; i <= 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total.Add(int64(i))
			hits.Add(1)
			flag.CompareAndSwap(false, true)
		}()
	}
	wg.Wait()
	fmt.Println(total.Load(), hits.Load(), flag.Load())
	var old atomic.Int64
	old.Store(5)
	fmt.Println(old.Swap(9), old.Load(), old.CompareAndSwap(9, 10), old.Load())
	var ptr atomic.Pointer[string]
	s := "hello"
	ptr.Store(&s)
	fmt.Println(*ptr.Load())
	var val atomic.Value
	val.Store([]int{1, 2})
	fmt.Println(val.Load().([]int))

	var m sync.Map
	for i := range 5 {
		m.Store(i, i*i)
	}
	v, ok := m.Load(3)
	fmt.Println(v, ok)
	act, loaded := m.LoadOrStore(3, 100)
	fmt.Println(act, loaded)
	act, loaded = m.LoadOrStore(7, 49)
	fmt.Println(act, loaded)
	m.Delete(0)
	var keys []int
	m.Range(func(k, v any) bool {
		keys = append(keys, k.(int))
		return true
	})
	sort.Ints(keys)
	fmt.Println(keys)
	prev, ok := m.Swap(1, -1)
	fmt.Println(prev, ok, m.CompareAndDelete(1, -1))

	q := NewQueue()
	results := make(chan int, 10)
	var cw sync.WaitGroup
	for range 3 {
		cw.Add(1)
		go func() {
			defer cw.Done()
			for {
				v, ok := q.Get()
				if !ok {
					return
				}
				results <- v * 2
			}
		}()
	}
	for i := range 6 {
		q.Put(i)
	}
	q.Close()
	cw.Wait()
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	fmt.Println("cond sum", sum)
	pool := sync.Pool{New: func() any { return new([]byte) }}
	b := pool.Get().(*[]byte)
	fmt.Println(len(*b))
}
