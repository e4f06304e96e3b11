package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

type Employee struct {
	Dept   string
	Name   string
	Salary int
}

func byDeptName(a, b Employee) int {
	return cmp.Or(cmp.Compare(a.Dept, b.Dept), strings.Compare(a.Name, b.Name))
}

func main() {
	staff := []Employee{
		{"eng", "zoe", 120}, {"ops", "al", 90}, {"eng", "bea", 130},
		{"hr", "cy", 70}, {"ops", "dee", 95}, {"eng", "abe", 110},
	}
	slices.SortFunc(staff, byDeptName)
	for _, e := range staff {
		fmt.Printf("%s/%s ", e.Dept, e.Name)
	}
	fmt.Println()

	i, found := slices.BinarySearchFunc(staff, Employee{Dept: "ops", Name: "dee"}, byDeptName)
	fmt.Println("dee at", i, found)
	i, found = slices.BinarySearchFunc(staff, Employee{Dept: "eng", Name: "carl"}, byDeptName)
	fmt.Println("carl would go at", i, found)
	j, ok := slices.BinarySearchFunc(staff, "hr", func(e Employee, d string) int { return cmp.Compare(e.Dept, d) })
	fmt.Println("first hr", j, ok, staff[j].Name)

	bySalary := slices.Clone(staff)
	slices.SortStableFunc(bySalary, func(a, b Employee) int { return cmp.Compare(b.Salary, a.Salary) })
	fmt.Println("top", bySalary[0].Name, "bottom", bySalary[len(bySalary)-1].Name)
	richest := slices.MaxFunc(staff, func(a, b Employee) int { return cmp.Compare(a.Salary, b.Salary) })
	fmt.Println("max", richest)
	idx := slices.IndexFunc(staff, func(e Employee) bool { return e.Salary < 80 })
	fmt.Println("under 80:", idx, slices.ContainsFunc(staff, func(e Employee) bool { return e.Dept == "sales" }))

	nums := []int{1, 3, 3, 3, 7, 9}
	for _, t := range []int{0, 3, 4, 9, 10} {
		p, f := slices.BinarySearch(nums, t)
		fmt.Printf("%d:%d,%t ", t, p, f)
	}
	fmt.Println()
	fmt.Println(cmp.Compare(1.5, 2), cmp.Compare("b", "a"), cmp.Less(3, 3), cmp.Or("", "default"), cmp.Or(0, 0, 5))
	words := strings.Fields("Banana apple Cherry apple banana")
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
	})
	fmt.Println(words, slices.Compact(words))
	grid := [][]int{{3, 1}, {1, 2}, {3, 0}, {1, 1}}
	slices.SortFunc(grid, slices.Compare[[]int])
	fmt.Println(grid, slices.Equal(grid[0], []int{1, 1}))
}
