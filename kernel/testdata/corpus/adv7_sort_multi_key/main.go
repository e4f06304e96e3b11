package main

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
)

type Employee struct {
	Name   string
	Dept   string
	Salary int
	Age    int
}

func main() {
	staff := []Employee{
		{"alice", "eng", 120, 30},
		{"bob", "ops", 90, 45},
		{"carol", "eng", 120, 28},
		{"dave", "eng", 100, 35},
		{"erin", "ops", 95, 29},
		{"frank", "sales", 70, 50},
		{"grace", "sales", 70, 41},
	}
	byDeptSalary := slices.Clone(staff)
	slices.SortStableFunc(byDeptSalary, func(a, b Employee) int {
		return cmp.Or(
			cmp.Compare(a.Dept, b.Dept),
			-cmp.Compare(a.Salary, b.Salary),
		)
	})
	for _, e := range byDeptSalary {
		fmt.Printf("%-6s %-5s %4d\n", e.Dept, e.Name, e.Salary)
	}

	byAge := slices.Clone(staff)
	sort.Slice(byAge, func(i, j int) bool { return byAge[i].Age < byAge[j].Age })
	names := make([]string, 0, len(byAge))
	for _, e := range byAge {
		names = append(names, e.Name)
	}
	fmt.Println(strings.Join(names, ","))

	idx, found := slices.BinarySearchFunc(byAge, 41, func(e Employee, age int) int { return cmp.Compare(e.Age, age) })
	fmt.Println(idx, found, byAge[idx].Name)
	idx, found = slices.BinarySearchFunc(byAge, 40, func(e Employee, age int) int { return cmp.Compare(e.Age, age) })
	fmt.Println(idx, found)

	totals := map[string]int{}
	for _, e := range staff {
		totals[e.Dept] += e.Salary
	}
	depts := make([]string, 0, len(totals))
	for d := range totals {
		depts = append(depts, d)
	}
	sort.Strings(depts)
	for _, d := range depts {
		fmt.Println(d, totals[d])
	}
	oldest := slices.MaxFunc(staff, func(a, b Employee) int { return cmp.Compare(a.Age, b.Age) })
	youngest := slices.MinFunc(staff, func(a, b Employee) int { return cmp.Compare(a.Age, b.Age) })
	fmt.Println(oldest.Name, youngest.Name)
	i := slices.IndexFunc(staff, func(e Employee) bool { return e.Salary < 80 })
	fmt.Println(i, staff[i].Name)
	staff = slices.DeleteFunc(staff, func(e Employee) bool { return e.Dept == "ops" })
	fmt.Println(len(staff), staff[len(staff)-1])
	fmt.Println(slices.ContainsFunc(staff, func(e Employee) bool { return e.Name == "bob" }))

	ints := []int{5, 2, 8, 2, 9, 1, 5, 5}
	slices.Sort(ints)
	fmt.Println(ints, slices.Compact(slices.Clone(ints)))
	fmt.Println(sort.SearchInts(ints, 5), sort.IsSorted(sort.IntSlice(ints)))
	sort.Sort(sort.Reverse(sort.IntSlice(ints)))
	fmt.Println(ints)
}
