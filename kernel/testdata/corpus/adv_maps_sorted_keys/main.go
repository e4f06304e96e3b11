package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func main() {
	inv := map[string]int{"pear": 3, "apple": 5, "fig": 1, "kiwi": 0}
	keys := slices.Sorted(maps.Keys(inv))
	fmt.Println(keys)
	vals := slices.Sorted(maps.Values(inv))
	fmt.Println(vals)
	for _, k := range keys {
		fmt.Printf("%-6s %d\n", k, inv[k])
	}
	cp := maps.Clone(inv)
	maps.DeleteFunc(cp, func(k string, v int) bool { return v == 0 })
	fmt.Println(len(cp), len(inv), maps.Equal(cp, inv))
	upper := map[string]int{}
	maps.Copy(upper, cp)
	fmt.Println(upper["fig"], upper["kiwi"])
	collected := maps.Collect(func(yield func(string, int) bool) {
		for i, w := range strings.Fields("x yy zzz") {
			if !yield(w, i) {
				return
			}
		}
	})
	fmt.Println(collected)
	byLen := slices.SortedFunc(maps.Keys(inv), func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	fmt.Println(byLen)
}
