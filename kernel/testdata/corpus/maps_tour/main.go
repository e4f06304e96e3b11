package main

import (
	"fmt"
	"maps"
	"sort"
)

func main() {
	m := map[string]int{"apple": 3, "fig": 1, "kiwi": 2}
	c := maps.Clone(m)
	c["plum"] = 5
	fmt.Println(len(m), len(c), maps.Equal(m, c))
	delete(c, "plum")
	fmt.Println(maps.Equal(m, c))
	maps.DeleteFunc(c, func(k string, v int) bool { return v < 2 })
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(keys)
	dst := map[string]int{"x": 1}
	maps.Copy(dst, m)
	fmt.Println(dst)
	counts := map[rune]int{}
	for _, r := range "hello world" {
		counts[r]++
	}
	fmt.Println(counts['l'], counts['o'], len(counts))
}
