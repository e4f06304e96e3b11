package main

import "fmt"

type Grid [3][3]int

type Box struct {
	Vals [3]int
	Tags []string
}

func mutate(a [3]int) [3]int { a[0] = 99; return a }

func main() {
	a := [3]int{1, 2, 3}
	b := a
	b[0] = 100
	fmt.Println(a, b, mutate(a), a)

	var g Grid
	h := g
	h[1][1] = 5
	fmt.Println(g[1][1], h[1][1])

	x := Box{Vals: [3]int{1, 2, 3}, Tags: []string{"a"}}
	y := x
	y.Vals[0] = 7
	y.Tags[0] = "changed"
	fmt.Println(x.Vals, y.Vals, x.Tags, y.Tags)

	for i, v := range a {
		a[2] = 30
		fmt.Print(i, ":", v, " ")
	}
	fmt.Println(a)
	arr := [3]int{1, 2, 3}
	for i, v := range &arr {
		arr[2] = 30
		fmt.Print(i, ":", v, " ")
	}
	fmt.Println()

	m := map[string]Box{"k": x}
	bx := m["k"]
	bx.Vals[1] = 42
	fmt.Println(m["k"].Vals, bx.Vals)

	ps := []Box{x, y}
	for _, p := range ps {
		p.Vals[2] = -1
	}
	fmt.Println(ps[0].Vals, ps[1].Vals)
	for i := range ps {
		ps[i].Vals[2] = -1
	}
	fmt.Println(ps[0].Vals, ps[1].Vals)

	arrOfSlices := [2][]int{{1}, {2}}
	cp := arrOfSlices
	cp[0][0] = 9
	cp[1] = []int{8}
	fmt.Println(arrOfSlices, cp)
	fmt.Println(a == [3]int{1, 2, 30}, g == Grid{})
}
