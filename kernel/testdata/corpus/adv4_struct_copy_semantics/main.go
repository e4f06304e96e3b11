// Struct and array values copy on assignment, on call and into maps;
// slices inside them share their backing array.
package main

import "fmt"

type Stats struct {
	Counts [3]int
	Tags   []string
	Meta   struct{ Owner string }
}

func bump(s Stats) Stats {
	s.Counts[0]++
	s.Tags[0] = "changed"
	s.Meta.Owner = "callee"
	return s
}

type Grid [3][3]int

func (g Grid) Set(i, j, v int) Grid {
	g[i][j] = v
	return g
}

func (g *Grid) SetPtr(i, j, v int) { g[i][j] = v }

func main() {
	a := Stats{Counts: [3]int{1, 2, 3}, Tags: []string{"x", "y"}}
	a.Meta.Owner = "main"
	b := a
	b.Counts[1] = 99
	b.Meta.Owner = "b"
	fmt.Printf("%+v\n%+v\n", a, b)
	c := bump(a)
	fmt.Printf("%+v\n%+v\n", a, c)

	m := map[string]Stats{"k": a}
	s := m["k"]
	s.Counts[2] = -1
	fmt.Println(m["k"].Counts, s.Counts)
	m["k"] = s
	fmt.Println(m["k"].Counts)

	var g Grid
	g2 := g.Set(1, 1, 5)
	fmt.Println(g, g2)
	g.SetPtr(0, 2, 7)
	h := g
	h[0][0] = 1
	fmt.Println(g, h)

	arrs := [][2]int{{1, 2}, {3, 4}}
	first := arrs[0]
	first[0] = 100
	arrs[1][1] = 400
	fmt.Println(arrs, first)

	structs := []Stats{a, b}
	for _, st := range structs {
		st.Counts[0] = 0
	}
	for i := range structs {
		structs[i].Counts[2] = 42
	}
	fmt.Println(structs[0].Counts, structs[1].Counts)
}
