// Methods on function, slice and map types (the HandlerFunc pattern), and
// interfaces those types satisfy.
package main

import (
	"fmt"
	"sort"
	"strings"
)

type Transformer interface{ Apply(string) string }

type TransformFunc func(string) string

func (f TransformFunc) Apply(s string) string { return f(s) }

type Chain []Transformer

func (c Chain) Apply(s string) string {
	for _, t := range c {
		s = t.Apply(s)
	}
	return s
}

type Counts map[string]int

func (c Counts) Add(k string) { c[k]++ }
func (c Counts) Top() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if c[keys[i]] != c[keys[j]] {
			return c[keys[i]] > c[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

type Ints []int

func (xs Ints) Sum() (s int) {
	for _, x := range xs {
		s += x
	}
	return
}

func (xs *Ints) Push(v int) { *xs = append(*xs, v) }

type suffix string

func (s suffix) Apply(in string) string { return in + string(s) }

func run(t Transformer, in string) string { return t.Apply(in) }

func main() {
	up := TransformFunc(strings.ToUpper)
	trim := TransformFunc(func(s string) string { return strings.Trim(s, " ") })
	c := Chain{trim, up, suffix("!"), TransformFunc(func(s string) string { return "<" + s + ">" })}
	fmt.Println(run(c, "  hello "))
	fmt.Println(c.Apply("x"), len(c))
	var t Transformer = up
	fmt.Println(t.Apply("abc"))

	counts := Counts{}
	for _, w := range strings.Fields("b a c b a b") {
		counts.Add(w)
	}
	fmt.Println(counts.Top(), counts["b"])

	var xs Ints
	for i := range 5 {
		xs.Push(i * i)
	}
	fmt.Println(xs, xs.Sum(), Ints{1, 2}.Sum())

	handlers := map[string]TransformFunc{
		"rev": func(s string) string {
			r := []rune(s)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			return string(r)
		},
		"dup": func(s string) string { return s + s },
	}
	for _, k := range []string{"rev", "dup", "missing"} {
		if h, ok := handlers[k]; ok {
			fmt.Println(k, h.Apply("héllo"))
		} else {
			fmt.Println(k, h == nil)
		}
	}
}
