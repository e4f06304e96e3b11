package main

import (
	"fmt"
	"sort"
)

type Key struct {
	X, Y int
	Name string
}

type Grid [3][3]int

func mutate(g Grid) Grid {
	g[1][1] = 9
	return g
}

func mutateP(g *Grid) { g[0][0] = 7 }

func main() {
	seen := map[Key]int{}
	seen[Key{1, 2, "a"}]++
	seen[Key{1, 2, "a"}]++
	seen[Key{2, 1, "a"}]++
	fmt.Println(len(seen), seen[Key{1, 2, "a"}], Key{1, 2, "a"} == Key{X: 1, Y: 2, Name: "a"})
	arrKey := map[[2]string]bool{{"a", "b"}: true}
	fmt.Println(arrKey[[2]string{"a", "b"}], arrKey[[2]string{"b", "a"}])
	var g Grid
	g2 := mutate(g)
	mutateP(&g)
	fmt.Println(g, g2, g == g2)
	a := [...]int{5, 6, 7}
	b := a
	b[0] = 0
	fmt.Println(a, b, len(a))
	s := a[:]
	s[1] = 60
	fmt.Println(a)
	src := []int{1, 2, 3, 4}
	dst := make([]int, 2)
	bs0 := make([]byte, 1)
	n := copy(dst, src)
	fmt.Println(n, dst, copy(bs0, "xx"))
	overlap := []int{1, 2, 3, 4, 5}
	copy(overlap[1:], overlap)
	fmt.Println(overlap)
	bs := make([]byte, 3)
	copy(bs, "hey!")
	fmt.Println(string(bs))
	type pt struct{ a, b int }
	ptrs := map[*pt]string{}
	p1, p2 := &pt{1, 1}, &pt{1, 1}
	ptrs[p1], ptrs[p2] = "one", "two"
	fmt.Println(len(ptrs), *p1 == *p2, p1 == p2)
	var keys []Key
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].X < keys[j].X })
	fmt.Println(keys)
	iface := map[any]int{1: 1, "1": 2, Key{}: 3, [1]int{1}: 4}
	fmt.Println(iface[1], iface["1"], iface[Key{}], iface[[1]int{1}])
	sl := append([]int(nil), 1)
	sl2 := append(sl[:1:1], 2)
	sl3 := append(sl[:1], 3)
	fmt.Println(sl2, sl3)
}
