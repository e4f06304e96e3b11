package main

import (
	"fmt"
	"strings"
	"sync"
)

type job struct {
	idx  int
	text string
}

type result struct {
	idx   int
	words int
	upper string
}

func worker(id int, jobs <-chan job, results chan<- result, wg *sync.WaitGroup) {
	defer wg.Done()
	for j := range jobs {
		results <- result{idx: j.idx, words: len(strings.Fields(j.text)), upper: strings.ToUpper(j.text)}
	}
}

func main() {
	texts := []string{"the quick brown fox", "jumps", "over the lazy", "dog", "", "a b c d e f"}
	jobs := make(chan job)
	results := make(chan result, len(texts))
	var wg sync.WaitGroup
	for w := 1; w <= 3; w++ {
		wg.Add(1)
		go worker(w, jobs, results, &wg)
	}
	go func() {
		for i, t := range texts {
			jobs <- job{i, t}
		}
		close(jobs)
	}()
	wg.Wait()
	close(results)
	out := make([]result, len(texts))
	for r := range results {
		out[r.idx] = r
	}
	total := 0
	for _, r := range out {
		total += r.words
		fmt.Printf("%d %d %q\n", r.idx, r.words, r.upper)
	}
	fmt.Println("total", total)

	var mu sync.Mutex
	var wg2 sync.WaitGroup
	squares := map[int]int{}
	for i := range 10 {
		wg2.Go(func() {
			mu.Lock()
			defer mu.Unlock()
			squares[i] = i * i
		})
	}
	wg2.Wait()
	sum := 0
	for _, v := range squares {
		sum += v
	}
	fmt.Println(len(squares), sum)

	done := make(chan struct{})
	data := make(chan int)
	go func() {
		defer close(done)
		s := 0
		for v := range data {
			s += v
		}
		fmt.Println("consumer sum", s)
	}()
	for i := 1; i <= 100; i++ {
		data <- i
	}
	close(data)
	<-done

	sem := make(chan struct{}, 2)
	var wg3 sync.WaitGroup
	var maxActive, active int
	var amu sync.Mutex
	for i := 0; i < 6; i++ {
		wg3.Add(1)
		go func() {
			defer wg3.Done()
			sem <- struct{}{}
			amu.Lock()
			active++
			if active > maxActive {
				maxActive = active
			}
			amu.Unlock()
			amu.Lock()
			active--
			amu.Unlock()
			<-sem
		}()
	}
	wg3.Wait()
	fmt.Println("max active <= 2:", maxActive <= 2)
}
