package main

import (
	"fmt"
	"sort"
)

type Coord struct{ X, Y int }

type Edge struct {
	From, To Coord
}

type Key struct {
	Name string
	Tags [2]string
}

func main() {
	visits := map[Coord]int{}
	path := []Coord{{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {1, 1}}
	for _, c := range path {
		visits[c]++
	}
	keys := make([]Coord, 0, len(visits))
	for k := range visits {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].X != keys[j].X {
			return keys[i].X < keys[j].X
		}
		return keys[i].Y < keys[j].Y
	})
	for _, k := range keys {
		fmt.Println(k, visits[k])
	}
	edges := map[Edge]bool{}
	for i := 1; i < len(path); i++ {
		e := Edge{path[i-1], path[i]}
		if e.From == e.To {
			continue
		}
		edges[e] = true
	}
	fmt.Println(len(edges), edges[Edge{Coord{0, 0}, Coord{1, 0}}], edges[Edge{Coord{1, 0}, Coord{0, 0}}])

	k1 := Key{"a", [2]string{"x", "y"}}
	k2 := Key{"a", [2]string{"x", "y"}}
	k3 := k1
	k3.Tags[1] = "z"
	fmt.Println(k1 == k2, k1 == k3, k1 != k3)
	m := map[Key]string{k1: "first"}
	m[k2] = "second"
	m[k3] = "third"
	fmt.Println(len(m), m[k1], m[k3])

	type anon = struct {
		A int
		B string
	}
	am := map[anon]int{{1, "x"}: 10}
	am[anon{1, "x"}] += 5
	fmt.Println(am)

	var ik map[any]int = map[any]int{}
	ik[1] = 1
	ik[int64(1)] = 2
	ik["1"] = 3
	ik[Coord{1, 1}] = 4
	ik[[2]int{1, 1}] = 5
	fmt.Println(len(ik), ik[1], ik[int64(1)], ik[Coord{1, 1}], ik[[2]int{1, 1}])
	var p1, p2 *Coord = &Coord{1, 2}, &Coord{1, 2}
	fmt.Println(p1 == p2, *p1 == *p2)
	arrs := map[[3]int]string{{1, 2, 3}: "abc"}
	a := [3]int{1, 2, 3}
	fmt.Println(arrs[a])
	a[0] = 9
	fmt.Println(arrs[a] == "")
}
