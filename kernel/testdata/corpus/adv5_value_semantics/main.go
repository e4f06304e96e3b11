package main

import "fmt"

type Stats struct {
	Hits   int
	Recent [3]string
}

func (s Stats) Bumped() Stats { s.Hits++; return s }
func (s *Stats) Bump()        { s.Hits++ }

type Team struct {
	Name    string
	Members []string
	Stats   Stats
}

func rename(t Team)        { t.Name = "changed"; t.Members[0] = "shared!" }
func renamePtr(t *Team)    { t.Name = "changed" }
func fill(a [3]int) [3]int { a[0] = 99; return a }

func main() {
	teams := map[string]Team{"a": {Name: "alpha", Members: []string{"ann", "al"}}}
	t := teams["a"]
	t.Stats.Hits = 10
	fmt.Println(teams["a"].Stats.Hits, t.Stats.Hits)
	teams["a"] = t
	fmt.Println(teams["a"].Stats.Hits)

	rename(t)
	fmt.Println(t.Name, t.Members)
	renamePtr(&t)
	fmt.Println(t.Name)

	list := []Stats{{Hits: 1}, {Hits: 2}}
	for _, s := range list {
		s.Bump()
	}
	fmt.Println(list[0].Hits, list[1].Hits)
	for i := range list {
		list[i].Bump()
	}
	fmt.Println(list[0].Hits, list[1].Hits)
	b := list[0].Bumped()
	fmt.Println(list[0].Hits, b.Hits)

	arr := [3]int{1, 2, 3}
	out := fill(arr)
	fmt.Println(arr, out)
	grid := [2][2]int{{1, 2}, {3, 4}}
	g2 := grid
	g2[0][0] = 100
	fmt.Println(grid, g2, grid == g2)
	row := grid[1]
	row[1] = 40
	fmt.Println(grid[1], row)

	s1 := Stats{Hits: 1, Recent: [3]string{"x"}}
	s2 := s1
	s2.Recent[0] = "y"
	fmt.Println(s1.Recent, s2.Recent, s1 == s2)
	s2.Recent[0] = "x"
	fmt.Println(s1 == s2)

	ptrs := map[string]*Stats{"p": {Hits: 5}}
	ptrs["p"].Hits++
	ptrs["p"].Bump()
	fmt.Println(ptrs["p"].Hits)

	type pair struct{ a, b int }
	ps := []pair{{1, 2}, {3, 4}}
	cp := make([]pair, len(ps))
	copy(cp, ps)
	cp[0].a = 100
	alias := ps[:1]
	alias[0].b = 200
	fmt.Println(ps, cp, alias)
	st := struct {
		n  int
		xs []int
	}{1, []int{1}}
	st2 := st
	st2.n = 2
	st2.xs[0] = 2
	fmt.Println(st.n, st.xs, st2.n, st2.xs)
}
