package main

import (
	"fmt"
	"sort"
)

type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

type emp struct {
	name string
	age  int
}

func main() {
	ints := []int{3, 1, 2}
	sort.Ints(ints)
	fmt.Println(ints, sort.IntsAreSorted(ints), sort.SearchInts(ints, 2))
	words := byLen{"banana", "kiwi", "apple"}
	sort.Sort(words)
	fmt.Println(words)
	sort.Sort(sort.Reverse(sort.IntSlice(ints)))
	fmt.Println(ints)
	es := []emp{{"a", 30}, {"b", 25}, {"c", 30}, {"d", 20}}
	sort.SliceStable(es, func(i, j int) bool { return es[i].age < es[j].age })
	fmt.Println(es)
	fl := []float64{2.5, -1, 3}
	sort.Float64s(fl)
	fmt.Println(fl)
}
