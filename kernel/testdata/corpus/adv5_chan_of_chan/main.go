package main

import (
	"fmt"
	"strings"
)

type request struct {
	text  string
	reply chan<- string
}

func server(reqs <-chan request) {
	for r := range reqs {
		r.reply <- strings.ToUpper(r.text)
	}
}

func generator(n int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		for i := 2; i <= n; i++ {
			ch <- i
		}
	}()
	return ch
}

func filter(in <-chan int, p int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for v := range in {
			if v%p != 0 {
				out <- v
			}
		}
	}()
	return out
}

func main() {
	reqs := make(chan request)
	go server(reqs)
	for _, w := range []string{"ping", "hello"} {
		rc := make(chan string)
		reqs <- request{w, rc}
		fmt.Println(<-rc)
	}
	close(reqs)

	// Prime sieve (Go's classic), first 10 primes.
	ch := generator(100)
	var primes []int
	for i := 0; i < 10; i++ {
		p, ok := <-ch
		if !ok {
			break
		}
		primes = append(primes, p)
		ch = filter(ch, p)
	}
	fmt.Println(primes)

	chans := make([]chan int, 3)
	for i := range chans {
		chans[i] = make(chan int, 1)
		chans[i] <- i * 100
	}
	sum := 0
	for _, c := range chans {
		sum += <-c
		close(c)
	}
	v, ok := <-chans[0]
	fmt.Println(sum, v, ok, len(chans[1]), cap(chans[2]))

	results := make(chan chan string, 3)
	for _, name := range []string{"a", "b", "c"} {
		c := make(chan string, 1)
		results <- c
		go func() { c <- name + name }()
	}
	close(results)
	var got []string
	for c := range results {
		got = append(got, <-c)
	}
	fmt.Println(got)
	var sendOnly chan<- int = make(chan int, 1)
	sendOnly <- 5
	fmt.Println(len(sendOnly))
}
