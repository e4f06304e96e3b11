package main

import (
	"fmt"
	"strings"
)

type Greeter struct{ greeting string }

func (g Greeter) Greet(name string) string { return g.greeting + ", " + name }

func apply(f func(string) string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func main() {
	g := Greeter{"Hi"}
	f := g.Greet
	fmt.Println(apply(f, []string{"a", "b"}))
	fmt.Println(apply(strings.ToUpper, []string{"c"}))
	h := Greeter.Greet
	fmt.Println(h(Greeter{"Yo"}, "z"))
}
