package main

import (
	"fmt"
	"sync"
)

var wg sync.WaitGroup

type Counter struct{ n int }

func (c Counter) Report()   { fmt.Println("value receiver sees", c.n); wg.Done() }
func (c *Counter) PReport() { fmt.Println("pointer receiver sees", c.n); wg.Done() }

// A go statement evaluates its function value, receiver included, where it
// stands: the goroutine must see the counter as it was then.
func main() {
	c := Counter{n: 1}
	wg.Add(1)
	go c.Report()
	c.n = 2
	wg.Wait()

	p := &Counter{n: 10}
	wg.Add(1)
	go p.PReport()
	p = &Counter{n: 30}
	wg.Wait()
	fmt.Println("now", c.n, p.n)
}
