package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	results := map[int]int{}
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			mu.Lock()
			results[n] = n * n
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	keys := make([]int, 0)
	for k := range results {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		fmt.Print(results[k], " ")
	}
	fmt.Println()
}
