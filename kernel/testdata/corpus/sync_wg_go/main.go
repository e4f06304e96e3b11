package main

import (
	"fmt"
	"sort"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var seen []int
	for i := 1; i <= 5; i++ {
		wg.Go(func() {
			mu.Lock()
			seen = append(seen, i)
			mu.Unlock()
		})
	}
	wg.Wait()
	sort.Ints(seen)
	fmt.Println(seen)
}
