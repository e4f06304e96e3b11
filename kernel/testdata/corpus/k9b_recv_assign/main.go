package main

// The smallest variants of issue k9's wrong answer: yaegi let a bare
// receive write into the destination's frame slot, which loses the write
// for anything but a plain local of the same function.

import "fmt"

type S struct {
	A int
	B []int
}

var global = make([]int, 2)

func main() {
	c := make(chan int, 1)

	res := make([]int, 2)
	c <- 5
	res[1] = <-c
	fmt.Println("slice element:", res)

	var arr [2]int
	c <- 6
	arr[1] = <-c
	fmt.Println("array element:", arr)

	var s S
	c <- 7
	s.A = <-c
	fmt.Println("field:", s)

	p := &s
	c <- 8
	p.A = <-c
	fmt.Println("field through a pointer:", s)

	s.B = make([]int, 2)
	c <- 9
	s.B[1] = <-c
	fmt.Println("nested element:", s)

	x := 0
	px := &x
	c <- 10
	*px = <-c
	fmt.Println("dereference:", x)

	c <- 11
	global[0] = <-c
	fmt.Println("package slice:", global)

	y := 0
	func() { c <- 12; y = <-c }()
	fmt.Println("closure assigns its caller's variable:", y)

	z := 0
	func() {
		func() { c <- 13; z = <-c }()
	}()
	fmt.Println("two closures deep:", z)

	c2 := make(chan int, 1)
	c <- 14
	c2 <- 15
	x, res[0] = <-c, <-c2
	fmt.Println("two at once:", x, res)

	cs := make(chan S, 1)
	ss := make([]S, 2)
	cs <- S{A: 16}
	ss[1] = <-cs
	fmt.Println("struct element:", ss)

	m := map[string]int{}
	c <- 17
	m["k"] = <-c
	fmt.Println("map entry:", m)

	var ok bool
	c <- 18
	res[1], ok = <-c
	fmt.Println("comma ok:", res, ok)

	c <- 19
	res[0] += <-c
	fmt.Println("op-assign:", res)
}
