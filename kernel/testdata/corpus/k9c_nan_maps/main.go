package main

import (
	"fmt"
	"math"
	"sort"
)

type key struct {
	a string
	b int
}

func main() {
	m := map[float64]int{}
	nan := math.NaN()
	m[nan] = 1
	m[nan] = 2
	m[1.0] = 3
	fmt.Println(len(m), m[nan])
	_, ok := m[nan]
	fmt.Println(ok)
	sum := 0
	for k, v := range m {
		if k != k {
			sum += v
		}
	}
	fmt.Println(sum)
	delete(m, nan)
	fmt.Println(len(m))
	clear(m)
	fmt.Println(len(m))

	sm := map[key][]int{}
	sm[key{"x", 1}] = append(sm[key{"x", 1}], 5)
	sm[key{"x", 1}] = append(sm[key{"x", 1}], 6)
	fmt.Println(sm)

	type point struct{ X, Y int }
	pm := map[point]string{{1, 2}: "a", {0, 0}: "o"}
	keys := make([]point, 0)
	for k := range pm {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].X < keys[j].X })
	fmt.Println(keys, pm[point{1, 2}])

	counts := map[string]int{}
	for _, w := range []string{"a", "b", "a", "c", "a", "b"} {
		counts[w]++
	}
	fmt.Println(counts)
	ms := map[string]struct{ N int }{"k": {1}}
	v := ms["k"]
	v.N++
	ms["k"] = v
	fmt.Println(ms, len(map[int]bool(nil)))
	var nm map[string]int
	fmt.Println(nm["x"], nm == nil)
	arrKey := map[[2]int]bool{{1, 2}: true}
	fmt.Println(arrKey[[2]int{1, 2}], arrKey[[2]int{2, 1}])
	ifaceKey := map[any]int{1: 1, "1": 2, 1.5: 3, true: 4}
	fmt.Println(ifaceKey[1], ifaceKey["1"], ifaceKey[1.5], ifaceKey[true], ifaceKey[int64(1)])
}
