package main

import (
	"fmt"
	"math"
	"sort"
)

type Set map[string]bool

func (s Set) Keys() []string {
	var out []string
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

type Scores map[float64]int

func main() {
	s := Set{"a": true, "b": true}
	alias := s
	fmt.Println(s.Keys(), len(alias))
	clear(s)
	fmt.Println(len(s), len(alias))
	sc := Scores{math.NaN(): 1, 2: 2}
	clear(sc)
	fmt.Println(len(sc))
	xs := []int{1, 2, 3}
	clear(xs[1:])
	fmt.Println(xs)
	type point struct{ X int }
	pm := map[point][]int{{1}: {1}}
	clear(pm)
	fmt.Println(len(pm))
}
