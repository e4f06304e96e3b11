// Map elements as destinations without multi-valued calls: swaps,
// compound assignments, ++, <<=, string +=, fields through pointer values,
// nested maps, and a multi-assignment mixing a slice and a map element.
package main

import (
	"fmt"
	"strings"
)

type T struct{ n int }

func f() int { return 3 }

func main() {
	m := map[string]int{"a": 1, "b": 2}
	m["a"], m["b"] = m["b"], m["a"]
	fmt.Println(m)
	m["a"] += f()
	m["c"]++
	m["b"] <<= 2
	fmt.Println(m)
	ms := map[string]string{}
	for _, w := range strings.Fields("x y x") {
		ms[w] += w
	}
	fmt.Println(ms)
	mp := map[string]*T{"t": {1}}
	mp["t"].n += 10
	mp["t"].n++
	fmt.Println(mp["t"].n)
	ml := map[string][]int{}
	ml["k"] = append(ml["k"], 1, 2)
	ml["k"][0] = 9
	fmt.Println(ml)
	mm := map[string]map[string]int{"o": {}}
	mm["o"]["i"] += 5
	fmt.Println(mm)
	arr := []int{0, 0}
	arr[0], m["z"] = 7, 8
	fmt.Println(arr, m["z"])
	i := 0
	i, m["w"] = 1, i
	fmt.Println(i, m["w"])
}
