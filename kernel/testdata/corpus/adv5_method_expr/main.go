package main

import (
	"fmt"
	"strings"
)

type Counter struct {
	name string
	n    int
}

func (c Counter) Value() int            { return c.n }
func (c Counter) Label(p string) string { return p + c.name }
func (c *Counter) Inc()                 { c.n++ }
func (c *Counter) Add(d int) int        { c.n += d; return c.n }

type Op struct {
	name string
	f    func(*Counter, int) int
}

func main() {
	value := Counter.Value
	label := Counter.Label
	inc := (*Counter).Inc
	add := (*Counter).Add
	pv := (*Counter).Value // value method through a pointer

	c := Counter{name: "hits"}
	inc(&c)
	inc(&c)
	fmt.Println(value(c), pv(&c), label(c, "#"))
	fmt.Println(add(&c, 10), c.n)

	ops := []Op{
		{"add", add},
		{"double", func(c *Counter, _ int) int { return add(c, c.n) }},
		{"reset", func(c *Counter, _ int) int { c.n = 0; return 0 }},
	}
	for _, op := range ops {
		fmt.Printf("%s -> %d\n", op.name, op.f(&c, 3))
	}

	cs := []Counter{{"a", 1}, {"b", 2}, {"c", 3}}
	var total int
	for i := range cs {
		inc(&cs[i])
		total += value(cs[i])
	}
	fmt.Println(total, cs)

	byName := map[string]func(Counter, string) string{"label": Counter.Label}
	fmt.Println(byName["label"](cs[1], ">"))

	f := strings.ToUpper
	apply := func(fs []func(string) string, s string) string {
		for _, f := range fs {
			s = f(s)
		}
		return s
	}
	fmt.Println(apply([]func(string) string{strings.TrimSpace, f, c.Label}, "  x  "))
}
