package main

import (
	"fmt"
	"sync"
	"time"
)

func producer(id int, n int) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		for i := range n {
			ch <- fmt.Sprintf("p%d-%d", id, i)
		}
	}()
	return ch
}

func merge(cs ...<-chan string) <-chan string {
	out := make(chan string)
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Add(1)
		go func(c <-chan string) {
			defer wg.Done()
			for v := range c {
				out <- v
			}
		}(c)
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

func main() {
	count := map[byte]int{}
	for v := range merge(producer(1, 3), producer(2, 4), producer(3, 0)) {
		count[v[1]]++
	}
	fmt.Println(count['1'], count['2'], count['3'])

	a, b := make(chan int), make(chan int)
	go func() {
		for i := range 3 {
			a <- i
		}
		close(a)
	}()
	go func() {
		for i := range 2 {
			b <- 10 + i
		}
		close(b)
	}()
	sum, closed := 0, 0
	for closed < 2 {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				closed++
				continue
			}
			sum += v
		case v, ok := <-b:
			if !ok {
				b = nil
				closed++
				continue
			}
			sum += v
		}
	}
	fmt.Println("sum", sum)
	sem := make(chan struct{}, 2)
	var mu sync.Mutex
	maxActive, active := 0, 0
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			mu.Lock()
			active++
			maxActive = max(maxActive, active)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			active--
			mu.Unlock()
			<-sem
		}()
	}
	wg.Wait()
	fmt.Println("max active <= 2:", maxActive <= 2)
	select {
	case v := <-make(chan int):
		fmt.Println(v)
	default:
		fmt.Println("default taken")
	}
	timer := time.NewTimer(time.Hour)
	fmt.Println("stopped:", timer.Stop())
	res := make(chan string, 1)
	go func() { res <- "fast" }()
	select {
	case r := <-res:
		fmt.Println(r)
	case <-time.After(5 * time.Second):
		fmt.Println("timeout")
	}
}
