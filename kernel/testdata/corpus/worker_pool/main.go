package main

import (
	"fmt"
	"sort"
	"sync"
)

func worker(id int, jobs <-chan int, results chan<- [2]int, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		results <- [2]int{j, j * 10}
	}
}

func main() {
	jobs := make(chan int, 100)
	results := make(chan [2]int, 100)
	var wg sync.WaitGroup
	for w := 1; w <= 3; w++ {
		wg.Add(1)
		go worker(w, jobs, results, &wg)
	}
	for j := 1; j <= 9; j++ {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(results)
	var out []int
	for r := range results {
		out = append(out, r[1])
	}
	sort.Ints(out)
	fmt.Println(out)
}
