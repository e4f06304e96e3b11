package main

import (
	"fmt"
)

type myErr struct{}

func (*myErr) Error() string { return "my" }

func find(fail bool) error {
	var p *myErr
	if fail {
		p = &myErr{}
	}
	return p // a typed nil when !fail: not == nil
}

func findAny() any {
	var p *int
	return p
}

type T struct{ err error }

func main() {
	var e error
	var pe *myErr
	fmt.Println("1", e == nil, pe == nil)
	e = pe
	fmt.Println("2", e == nil, e != nil)
	var e2 error = pe
	fmt.Println("3", e2 == nil)
	fmt.Println("4", find(false) == nil, find(true) == nil)
	err := find(false)
	if err != nil {
		fmt.Println("5 not nil")
	} else {
		fmt.Println("5 nil")
	}
	fmt.Println("6", findAny() == nil)
	var x any = (*int)(nil)
	fmt.Println("7", x == nil)
	t := T{err: pe}
	fmt.Println("8", t.err == nil)
	errs := []error{pe, nil}
	fmt.Println("9", errs[0] == nil, errs[1] == nil)
}
