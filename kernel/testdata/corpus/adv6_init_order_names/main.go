package main

// Package variables whose initializers name a method, or a struct field,
// that shares a name with something that reads a later variable. Go
// orders by what each initializer really refers to (U.Name, not T.Name;
// the field b, not the variable b), so a and c come first.

import "fmt"

var trace []string

func note(s string) string { trace = append(trace, s); return s }

type T struct{}

func (T) Name() string { return cfg }

type U struct{}

func (U) Name() string { return "u" }

type P struct{ b, c int }

var a = note("a:" + U{}.Name())
var cfg = note("cfg")
var c = note(fmt.Sprint("c:", P{b: 1}.b))
var b = note("b")

func main() {
	fmt.Println(trace)
	fmt.Println(a, cfg, c, b)
}
