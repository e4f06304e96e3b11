// Maps of structs, of slices and of pointers: copy-modify-store, append
// into a map slot, delete during range, and counting with nested maps.
package main

import (
	"fmt"
	"sort"
	"strings"
)

type Agg struct {
	Count int
	Sum   float64
	Vals  []float64
}

type row struct {
	user, page string
	ms         float64
}

func main() {
	rows := []row{{"ann", "/a", 10}, {"bo", "/a", 30}, {"ann", "/b", 5}, {"ann", "/a", 20}, {"cy", "/c", 1}}
	byUser := map[string]Agg{}
	byPage := map[string]*Agg{}
	pagesOf := map[string][]string{}
	matrix := map[string]map[string]int{}
	for _, r := range rows {
		a := byUser[r.user]
		a.Count++
		a.Sum += r.ms
		a.Vals = append(a.Vals, r.ms)
		byUser[r.user] = a

		if byPage[r.page] == nil {
			byPage[r.page] = &Agg{}
		}
		byPage[r.page].Count++
		byPage[r.page].Sum += r.ms

		pagesOf[r.user] = append(pagesOf[r.user], r.page)
		if matrix[r.user] == nil {
			matrix[r.user] = map[string]int{}
		}
		matrix[r.user][r.page]++
	}
	fmt.Println(byUser)
	users := make([]string, 0)
	for u := range byUser {
		users = append(users, u)
	}
	sort.Strings(users)
	for _, u := range users {
		a := byUser[u]
		fmt.Printf("%s n=%d avg=%.2f vals=%v pages=%s\n", u, a.Count, a.Sum/float64(a.Count), a.Vals, strings.Join(pagesOf[u], ","))
	}
	for _, p := range []string{"/a", "/b", "/c"} {
		fmt.Println(p, *byPage[p])
	}
	fmt.Println(matrix, matrix["zed"]["/a"], len(matrix["zed"]))

	for u, a := range byUser {
		if a.Count < 2 {
			delete(byUser, u)
		}
	}
	fmt.Println(len(byUser), byUser["ann"].Count)

	type key struct{ u, p string }
	seen := map[key]bool{}
	dups := 0
	for _, r := range rows {
		k := key{r.user, r.page}
		if seen[k] {
			dups++
		}
		seen[k] = true
	}
	fmt.Println(dups, len(seen), seen[key{"ann", "/a"}])
	v, ok := byUser["nobody"]
	fmt.Println(v, ok, v.Vals == nil)
	m2 := map[string][2]int{}
	arr := m2["x"]
	arr[0] = 5
	m2["x"] = arr
	fmt.Println(m2)
	counts := map[string]int{}
	counts["a"] += 2
	counts["b"]++
	counts["a"] *= 10
	fmt.Println(counts)
}
