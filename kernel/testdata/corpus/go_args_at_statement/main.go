package main

import (
	"fmt"
	"sync"
	"time"
)

type pair struct{ a, b int }

func slow(v int) int { time.Sleep(2 * time.Millisecond); return v * 100 }

func record(res []string, i int, v string, wg *sync.WaitGroup) {
	defer wg.Done()
	res[i] = v
}

func main() {
	// A go statement evaluates its arguments where it stands: an index
	// expression, a call and a composite literal, while the loop moves on.
	vals := []int{10, 11, 12, 13}
	chans := []chan int{make(chan int, 1), make(chan int, 1), make(chan int, 1), make(chan int, 1)}
	res := make([]string, 4)
	var wg sync.WaitGroup
	for i := range vals {
		wg.Add(1)
		go func(a, b, c int, p pair, ch chan int) {
			defer wg.Done()
			time.Sleep(time.Duration(4-a) * time.Millisecond)
			ch <- a
			res[a] = fmt.Sprint(a, b, c, p, <-ch)
		}(i, vals[i], slow(i), pair{i, vals[i]}, chans[i])
	}
	wg.Wait()
	fmt.Println(res)

	// The same through a named function.
	out := make([]string, 3)
	words := []string{"x", "y", "z"}
	for i := 0; i < len(words); i++ {
		wg.Add(1)
		go record(out, i, words[i]+fmt.Sprint(slow(i)), &wg)
	}
	wg.Wait()
	fmt.Println(out)
}
