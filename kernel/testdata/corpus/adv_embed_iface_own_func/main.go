package main

import (
	"fmt"
	"sort"
)

type desc struct{ sort.Interface }

func (d desc) Less(i, j int) bool { return d.Interface.Less(j, i) }

func count(s sort.Interface) int { return s.Len() }

func main() {
	d := desc{sort.IntSlice{3, 1, 2}}
	fmt.Println(d.Less(0, 1), count(d))
}
