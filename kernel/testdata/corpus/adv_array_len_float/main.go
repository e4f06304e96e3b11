package main

import "fmt"

const n = 2.5 * 2

type grid [n / 2.5][n]bool

func main() {
	var a [n]int
	a[4] = 7
	fmt.Println(len(a), a)
	b := [1e1 / 5]string{"x", "y"}
	fmt.Println(len(b), b)
	var g grid
	g[1][4] = true
	fmt.Println(len(g), len(g[0]), g[1][4])
}
