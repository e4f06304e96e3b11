package main

import (
	"fmt"
	"sort"
)

func main() {
	sales := map[string]map[string]int{}
	add := func(region, product string, n int) {
		if sales[region] == nil {
			sales[region] = map[string]int{}
		}
		sales[region][product] += n
	}
	add("eu", "apples", 3)
	add("eu", "pears", 2)
	add("us", "apples", 5)
	add("eu", "apples", 1)
	regions := make([]string, 0, len(sales))
	for r := range sales {
		regions = append(regions, r)
	}
	sort.Strings(regions)
	for _, r := range regions {
		fmt.Println(r, sales[r])
	}
	if v, ok := sales["asia"]["rice"]; !ok {
		fmt.Println("no rice", v)
	}
}
