package main

import (
	"fmt"
	"sort"
)

type Person struct {
	Name string
	Age  int
}

type People []Person

func (p People) Len() int      { return len(p) }
func (p People) Swap(i, j int) { p[i], p[j] = p[j], p[i] }

type ByAge struct{ People }

func (b ByAge) Less(i, j int) bool { return b.People[i].Age < b.People[j].Age }

type ByName struct{ People }

func (b ByName) Less(i, j int) bool { return b.People[i].Name < b.People[j].Name }

type byLen []string

func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }

func names(p People) []string {
	var out []string
	for _, x := range p {
		out = append(out, fmt.Sprintf("%s(%d)", x.Name, x.Age))
	}
	return out
}

func main() {
	people := People{{"Eve", 41}, {"bob", 17}, {"Alice", 30}, {"Dan", 17}, {"Carol", 52}}
	sort.Sort(ByName{people})
	fmt.Println(names(people))
	sort.Stable(ByAge{people})
	fmt.Println(names(people))
	sort.Sort(sort.Reverse(ByAge{people}))
	fmt.Println(names(people)[0], sort.IsSorted(ByAge{people}))

	words := byLen{"banana", "kiwi", "fig", "cherry", "apple"}
	sort.Stable(words)
	fmt.Println(words)
	i := sort.Search(len(words), func(i int) bool { return len(words[i]) >= 5 })
	fmt.Println("first len>=5 at", i, words[i])

	nums := sort.IntSlice{5, 2, 8, 1}
	nums.Sort()
	fmt.Println(nums, nums.Search(8), sort.SearchInts(nums, 3))
	fs := []float64{2.5, -1, 3.25}
	sort.Float64s(fs)
	fmt.Println(fs)
}
