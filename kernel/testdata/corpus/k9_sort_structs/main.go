package main

import (
	"fmt"
	"sort"
	"strings"
)

type Employee struct {
	Name   string
	Dept   string
	Salary int
	Age    int
}

type byAge []Employee

func (a byAge) Len() int           { return len(a) }
func (a byAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byAge) Less(i, j int) bool { return a[i].Age < a[j].Age }

func main() {
	staff := []Employee{
		{"Ann", "eng", 120, 34}, {"Bo", "ops", 90, 45}, {"Cid", "eng", 120, 29},
		{"Dee", "ops", 95, 38}, {"Eve", "eng", 150, 41}, {"Fay", "hr", 70, 25},
	}
	sort.Slice(staff, func(i, j int) bool {
		if staff[i].Dept != staff[j].Dept {
			return staff[i].Dept < staff[j].Dept
		}
		if staff[i].Salary != staff[j].Salary {
			return staff[i].Salary > staff[j].Salary
		}
		return staff[i].Name < staff[j].Name
	})
	for _, e := range staff {
		fmt.Printf("%-4s %-4s %4d\n", e.Name, e.Dept, e.Salary)
	}
	sort.SliceStable(staff, func(i, j int) bool { return staff[i].Salary < staff[j].Salary })
	var names []string
	for _, e := range staff {
		names = append(names, e.Name)
	}
	fmt.Println(strings.Join(names, ","))

	sort.Sort(byAge(staff))
	fmt.Println(staff[0].Name, staff[len(staff)-1].Name, sort.IsSorted(byAge(staff)))
	sort.Sort(sort.Reverse(byAge(staff)))
	fmt.Println(staff[0].Name)

	ages := []int{}
	for _, e := range staff {
		ages = append(ages, e.Age)
	}
	sort.Ints(ages)
	i := sort.SearchInts(ages, 38)
	j := sort.Search(len(ages), func(k int) bool { return ages[k] > 40 })
	fmt.Println(ages, i, j)
}
