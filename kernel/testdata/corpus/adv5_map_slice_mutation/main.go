package main

import (
	"fmt"
	"sort"
	"strings"
)

type Graph map[string][]string

func (g Graph) AddEdge(a, b string) {
	g[a] = append(g[a], b)
	g[b] = append(g[b], a)
}

func (g Graph) Components() [][]string {
	seen := map[string]bool{}
	var out [][]string
	keys := make([]string, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if seen[k] {
			continue
		}
		var comp []string
		stack := []string{k}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[n] {
				continue
			}
			seen[n] = true
			comp = append(comp, n)
			stack = append(stack, g[n]...)
		}
		sort.Strings(comp)
		out = append(out, comp)
	}
	return out
}

func main() {
	g := Graph{}
	for _, e := range strings.Fields("a-b b-c d-e f-f c-a") {
		x, y, _ := strings.Cut(e, "-")
		g.AddEdge(x, y)
	}
	fmt.Println(g.Components(), len(g["f"]))

	m := map[string]int{"a": 1, "b": 2, "c": 3, "d": 4}
	for k, v := range m {
		if v%2 == 0 {
			delete(m, k)
		}
	}
	fmt.Println(m, len(m))

	nested := map[string]map[string]int{}
	add := func(a, b string) {
		if nested[a] == nil {
			nested[a] = map[string]int{}
		}
		nested[a][b]++
	}
	add("x", "y")
	add("x", "y")
	add("x", "z")
	add("w", "y")
	fmt.Println(nested, len(nested["nope"]))

	base := make([]int, 3, 10)
	a := append(base, 1)
	b := append(base, 2)
	fmt.Println(a, b, a[3] == b[3])
	c := append(base[:3:3], 3)
	c[0] = 9
	fmt.Println(base, c)

	xs := []int{1, 2, 3, 4, 5}
	copy(xs[1:], xs)
	fmt.Println(xs)
	ys := []int{1, 2, 3, 4, 5}
	ys = append(ys[:1], ys[2:]...)
	fmt.Println(ys, len(ys), cap(ys))
	zs := ys[1:2]
	zs = append(zs, 100)
	fmt.Println(ys, zs)

	groups := map[bool][]int{}
	for i := range 7 {
		groups[i%2 == 0] = append(groups[i%2 == 0], i)
	}
	fmt.Println(groups[true], groups[false])
	counts := map[[2]byte]int{}
	word := "banana"
	for i := 0; i+1 < len(word); i++ {
		counts[[2]byte{word[i], word[i+1]}]++
	}
	fmt.Println(counts[[2]byte{'a', 'n'}], counts[[2]byte{'n', 'a'}], len(counts))
	matrix := make([][]int, 3)
	for i := range matrix {
		matrix[i] = make([]int, 3)
		for j := range matrix[i] {
			matrix[i][j] = i * j
		}
	}
	matrix[1] = matrix[2]
	matrix[2][0] = -1
	fmt.Println(matrix)
}
