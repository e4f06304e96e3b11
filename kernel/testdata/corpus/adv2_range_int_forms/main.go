package main

import "fmt"

type Level uint8

func pairs(a, b []string) []string {
	var out []string
	for i := range min(len(a), len(b)) {
		out = append(out, a[i]+"="+b[i])
	}
	return out
}

func firstSquareOver(limit int) int {
	var k int
	for k = range 100 {
		if k*k > limit {
			break
		}
	}
	return k
}

func main() {
	fmt.Println(pairs([]string{"a", "b", "c"}, []string{"1", "2"}))
	fmt.Println(firstSquareOver(50), firstSquareOver(1<<20))

	var lv Level
	for lv = range 4 {
	}
	fmt.Println("level", lv, lv+Level(250)+10)

	ticks := 0
	for _ = range 3 {
		ticks++
	}
	sizes := []int{3, 1, 4}
	for range max(len(sizes), 2) * 2 {
		ticks++
	}
	fmt.Println("ticks", ticks)

	counts := map[string]int{}
	for counts["n"] = range len(sizes) + 1 {
	}
	fmt.Println(counts)
}
