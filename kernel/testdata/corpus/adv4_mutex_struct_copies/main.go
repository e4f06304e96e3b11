// A struct holding a sync.Mutex, used through pointers; a copy of the struct
// copies its counters (and its lock state); a map of *struct guarded by a
// lock, and atomic counters beside it.
package main

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
)

type Stats struct {
	mu     sync.Mutex
	counts map[string]int
	total  int
}

func (s *Stats) Add(k string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k] += n
	s.total += n
}

func (s *Stats) Snapshot() (map[string]int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := make(map[string]int, len(s.counts))
	for k, v := range s.counts {
		cp[k] = v
	}
	return cp, s.total
}

type Registry struct {
	sync.RWMutex
	byName map[string]*Stats
}

func (r *Registry) Get(name string) *Stats {
	r.RLock()
	s, ok := r.byName[name]
	r.RUnlock()
	if ok {
		return s
	}
	r.Lock()
	defer r.Unlock()
	if s, ok := r.byName[name]; ok {
		return s
	}
	s = &Stats{}
	r.byName[name] = s
	return s
}

func main() {
	reg := &Registry{byName: map[string]*Stats{}}
	var wg sync.WaitGroup
	var ops atomic.Int64
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				reg.Get([]string{"a", "b"}[i%2]).Add(fmt.Sprint(g), 1)
				ops.Add(1)
			}
		}()
	}
	wg.Wait()
	names := []string{}
	for n := range reg.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		counts, total := reg.byName[n].Snapshot()
		fmt.Println(n, counts, total)
	}
	fmt.Println(ops.Load())

	var s Stats
	s.Add("x", 1)
	cp := s
	cp.total = 100
	cp.counts["shared"] = 1
	fmt.Println(s.total, cp.total, len(s.counts))
	cp.Add("y", 2)
	fmt.Println(s.counts, cp.total)
	var once sync.Once
	for i := 0; i < 3; i++ {
		once.Do(func() { fmt.Println("once", i) })
	}
	var flag atomic.Bool
	fmt.Println(flag.CompareAndSwap(false, true), flag.Load(), flag.Swap(false))
	var u atomic.Uint32
	u.Store(1)
	u.Add(^uint32(0))
	fmt.Println(u.Load())
}
