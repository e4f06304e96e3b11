package main

import "fmt"

func main() {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i * i })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	fmt.Println()
	var gs []func() string
	for _, s := range []string{"x", "y", "z"} {
		gs = append(gs, func() string { return s })
	}
	for _, g := range gs {
		fmt.Print(g())
	}
	fmt.Println()
	counter := func() func() int {
		c := 0
		return func() int { c++; return c }
	}()
	counter()
	counter()
	fmt.Println(counter())
}
