package main

import (
	"fmt"
	"strings"
)

type Counter struct{ n int }

func (c *Counter) Inc()      { c.n++ }
func (c Counter) Get() int   { return c.n }
func (c *Counter) Add(d int) { c.n += d }

type Named struct {
	Counter
	Name string
}

type Greeter interface{ Greet() string }

type English struct{ name string }

func (e English) Greet() string { return "hello " + e.name }

func apply(fs []func()) {
	for _, f := range fs {
		f()
	}
}

func main() {
	c := Counter{}
	inc := c.Inc // bound to &c
	get := c.Get // copies c now
	inc()
	inc()
	fmt.Println(c.n, get(), c.Get())

	n := &Named{Name: "x"}
	ninc := n.Inc // promoted through the embedded field
	ninc()
	n.Add(10)
	fmt.Println(n.n, n.Get())

	var fs []func()
	for i := 0; i < 3; i++ {
		fs = append(fs, func() { c.Add(i) })
	}
	apply(fs)
	fmt.Println(c.n)

	var g Greeter = English{"bob"}
	greet := g.Greet
	g = English{"alice"}
	fmt.Println(greet(), g.Greet())

	up := strings.ToUpper
	fmt.Println(up("abc"))
	b := &strings.Builder{}
	w := func(s string) { b.WriteString(s) }
	w("a")
	w("b")
	fmt.Println(b.String(), b.Len())
}
