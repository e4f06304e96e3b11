package main

import (
	"fmt"
	"sort"
)

type Emp struct {
	Name string
	Dept string
	Pay  int
}

func main() {
	emps := []Emp{
		{"a", "eng", 100}, {"b", "ops", 90}, {"c", "eng", 90},
		{"d", "ops", 100}, {"e", "eng", 100}, {"f", "hr", 90},
	}
	sort.SliceStable(emps, func(i, j int) bool { return emps[i].Pay > emps[j].Pay })
	for _, e := range emps {
		fmt.Print(e.Name, " ")
	}
	fmt.Println()
	sort.SliceStable(emps, func(i, j int) bool { return emps[i].Dept < emps[j].Dept })
	fmt.Println(emps)
	ints := []int{5, 2, 8, 1}
	sort.Sort(sort.Reverse(sort.IntSlice(ints)))
	fmt.Println(ints, sort.IsSorted(sort.IntSlice(ints)))
	strs := sort.StringSlice{"b", "c", "a"}
	strs.Sort()
	fmt.Println(strs, strs.Search("b"), sort.SearchInts([]int{1, 3, 5}, 4))
	idx := sort.Search(100, func(i int) bool { return i*i >= 50 })
	fmt.Println(idx)
	fl := []float64{2.5, -1, 3}
	sort.Float64s(fl)
	fmt.Println(fl)
}
