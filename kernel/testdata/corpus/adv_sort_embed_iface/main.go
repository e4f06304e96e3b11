package main

import (
	"fmt"
	"sort"
)

type person struct {
	name string
	age  int
}

type byAge []person

func (a byAge) Len() int           { return len(a) }
func (a byAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byAge) Less(i, j int) bool { return a[i].age < a[j].age }

// desc embeds sort.Interface and overrides Less: the pattern behind
// sort.Reverse, written out by hand.
type desc struct{ sort.Interface }

func (d desc) Less(i, j int) bool { return d.Interface.Less(j, i) }

func main() {
	people := []person{{"ann", 31}, {"bob", 25}, {"cid", 40}}
	sort.Sort(byAge(people))
	fmt.Println(people)
	sort.Sort(desc{byAge(people)})
	fmt.Println(people)
	sort.Sort(sort.Reverse(byAge(people)))
	fmt.Println(people)
}
