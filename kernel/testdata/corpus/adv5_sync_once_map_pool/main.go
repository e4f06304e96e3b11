package main

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type Registry struct {
	once  sync.Once
	items map[string]int
	loads atomic.Int64
}

func (r *Registry) get(k string) int {
	r.once.Do(func() {
		r.loads.Add(1)
		r.items = map[string]int{"a": 1, "b": 2}
	})
	return r.items[k]
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func render(name string, n int) string {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	fmt.Fprintf(b, "%s=%d", name, n)
	return b.String()
}

func main() {
	var r Registry
	var wg sync.WaitGroup
	var sum atomic.Int64
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum.Add(int64(r.get("a") + r.get("b") + i))
		}()
	}
	wg.Wait()
	fmt.Println("loads", r.loads.Load(), "sum", sum.Load())

	var m sync.Map
	for _, w := range []string{"x", "y", "x", "z", "x"} {
		v, loaded := m.LoadOrStore(w, new(atomic.Int32))
		v.(*atomic.Int32).Add(1)
		if !loaded {
			fmt.Print("new:", w, " ")
		}
	}
	fmt.Println()
	var keys []string
	m.Range(func(k, v any) bool {
		keys = append(keys, fmt.Sprintf("%s:%d", k, v.(*atomic.Int32).Load()))
		return true
	})
	sort.Strings(keys)
	fmt.Println(keys)
	m.Delete("y")
	_, ok := m.Load("y")
	prev, loaded := m.Swap("z", "replaced")
	fmt.Println(ok, loaded, prev.(*atomic.Int32).Load())
	v, _ := m.Load("z")
	fmt.Println(v)

	fmt.Println(render("a", 1), render("b", 22))
	var counter atomic.Int64
	counter.Store(10)
	fmt.Println(counter.CompareAndSwap(10, 20), counter.CompareAndSwap(10, 30), counter.Load(), counter.Swap(5), counter.Load())
	var flag atomic.Bool
	fmt.Println(flag.Load(), flag.CompareAndSwap(false, true), flag.Load())
	var mu sync.Mutex
	total := 0
	for i := 1; i <= 100; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			total += n
		}(i)
	}
	wg.Wait()
	fmt.Println("total", total)
}
