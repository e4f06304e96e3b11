// sort.SliceStable with several keys, closures capturing loop variables
// and sort.Search / slices.BinarySearch over the result.
package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

type rec struct {
	Dept string
	Name string
	Pay  int
}

func main() {
	recs := []rec{{"eng", "zed", 100}, {"ops", "amy", 90}, {"eng", "bob", 100}, {"ops", "cal", 120}, {"eng", "al", 80}, {"hr", "dee", 90}}
	orders := [][]string{{"Dept"}, {"Pay", "Name"}, {"Name"}}
	for _, order := range orders {
		cp := slices.Clone(recs)
		for k := len(order) - 1; k >= 0; k-- {
			field := order[k]
			sort.SliceStable(cp, func(i, j int) bool {
				switch field {
				case "Dept":
					return cp[i].Dept < cp[j].Dept
				case "Pay":
					return cp[i].Pay > cp[j].Pay
				}
				return cp[i].Name < cp[j].Name
			})
		}
		names := make([]string, len(cp))
		for i, r := range cp {
			names[i] = r.Name
		}
		fmt.Println(strings.Join(order, ","), names)
	}
	less := []func(a, b rec) bool{}
	for _, f := range []string{"Pay", "Name"} {
		less = append(less, func(a, b rec) bool {
			if f == "Pay" {
				return a.Pay < b.Pay
			}
			return a.Name < b.Name
		})
	}
	sort.Slice(recs, func(i, j int) bool {
		for _, l := range less {
			if l(recs[i], recs[j]) {
				return true
			}
			if l(recs[j], recs[i]) {
				return false
			}
		}
		return false
	})
	fmt.Println(recs)

	pays := []int{}
	for _, r := range recs {
		pays = append(pays, r.Pay)
	}
	fmt.Println(sort.IntsAreSorted(pays), sort.SearchInts(pays, 95), sort.SearchInts(pays, 100))
	i := sort.Search(len(recs), func(i int) bool { return recs[i].Pay >= 120 })
	fmt.Println(i, recs[i].Name)
	words := []string{"delta", "alpha", "charlie", "bravo"}
	slices.Sort(words)
	pos, found := slices.BinarySearch(words, "bravo")
	pos2, found2 := slices.BinarySearch(words, "beta")
	fmt.Println(words, pos, found, pos2, found2)
	p3, f3 := slices.BinarySearchFunc(recs, 90, func(r rec, t int) int { return r.Pay - t })
	fmt.Println(p3, f3)
	fl := []float64{2.5, -1, 3}
	sort.Float64s(fl)
	sort.Sort(sort.Reverse(sort.StringSlice(words)))
	fmt.Println(fl, words)
	slices.SortStableFunc(recs, func(a, b rec) int { return strings.Compare(a.Dept, b.Dept) })
	fmt.Println(recs)
}
