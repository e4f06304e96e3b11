package main

import "fmt"

func producer(n int, out chan<- int) {
	for i := 0; i < n; i++ {
		out <- i
	}
	close(out)
}

func main() {
	ch := make(chan int)
	go producer(5, ch)
	sum := 0
	for v := range ch {
		sum += v
	}
	fmt.Println("sum", sum)
	buf := make(chan string, 2)
	buf <- "a"
	buf <- "b"
	fmt.Println(len(buf), cap(buf), <-buf, <-buf)
	done := make(chan struct{})
	res := make(chan int, 1)
	go func() {
		defer close(done)
		res <- 7
	}()
	<-done
	fmt.Println(<-res)
}
