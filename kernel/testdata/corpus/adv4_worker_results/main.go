// A worker pool over a channel of tasks whose Run method returns a result
// struct with a method; results sorted, grouped by goroutines under a
// mutex, and struct values sent on a buffered channel by copy.
package main

import (
	"fmt"
	"sort"
	"sync"
)

type Result struct {
	ID    int
	Value float64
	Err   error
}

func (r Result) OK() bool { return r.Err == nil }

type Task struct{ ID int }

func (t Task) Run() Result {
	if t.ID%3 == 0 {
		return Result{ID: t.ID, Err: fmt.Errorf("task %d failed", t.ID)}
	}
	return Result{ID: t.ID, Value: float64(t.ID) * 1.5}
}

func main() {
	tasks := make(chan Task)
	results := make(chan Result)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range tasks {
				results <- t.Run()
			}
		}()
	}
	go func() {
		for i := 1; i <= 7; i++ {
			tasks <- Task{ID: i}
		}
		close(tasks)
	}()
	go func() { wg.Wait(); close(results) }()
	var all []Result
	for r := range results {
		all = append(all, r)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	okCount := 0
	for _, r := range all {
		if r.OK() {
			okCount++
		}
		fmt.Println(r.ID, r.Value, r.Err)
	}
	fmt.Println(okCount)
	ch := make(chan Result, 2)
	r := Result{ID: 1}
	ch <- r
	r.ID = 2
	ch <- r
	fmt.Println((<-ch).ID, (<-ch).ID)
	var mu sync.Mutex
	byOK := map[bool][]int{}
	var wg2 sync.WaitGroup
	for _, res := range all {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			mu.Lock()
			byOK[res.OK()] = append(byOK[res.OK()], res.ID)
			mu.Unlock()
		}()
	}
	wg2.Wait()
	sort.Ints(byOK[true])
	sort.Ints(byOK[false])
	fmt.Println(byOK)
}
