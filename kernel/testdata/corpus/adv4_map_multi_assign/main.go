// A call's several results assigned to a map element and another
// destination: m[k], err = parse(s). yaegi never wrote the map element (the
// map stayed empty), and with a blank among the destinations it failed
// "reflect: New(nil)"; the kernel receives the results first.
package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func parse(s string) (int, error) { return strconv.Atoi(strings.TrimSpace(s)) }

func minmax(xs []int) (int, int) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

func split(kv string) (string, string) {
	k, v, _ := strings.Cut(kv, "=")
	return k, v
}

type stats struct {
	lo, hi map[string]int
}

func main() {
	values := map[string]int{}
	failed := map[string]error{}
	for _, s := range []string{"10", " 7", "x", "42"} {
		var err error
		values[s], err = parse(s)
		if err != nil {
			delete(values, s)
			failed[s] = err
		}
	}
	fmt.Println(values, len(failed))

	groups := map[string][]int{"a": {3, 1, 2}, "b": {9}}
	st := stats{lo: map[string]int{}, hi: map[string]int{}}
	for k, xs := range groups {
		st.lo[k], st.hi[k] = minmax(xs)
	}
	fmt.Println(st.lo, st.hi)

	cfg := map[string]string{}
	var key string
	for _, kv := range []string{"mode=fast", "retries=3"} {
		key, cfg[kv] = split(kv)
		_ = key
	}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s -> %s\n", k, cfg[k])
	}

	firsts := map[int]int{}
	for i, xs := range [][]int{{5, 6}, {1, 9}} {
		firsts[i], _ = minmax(xs)
	}
	fmt.Println(firsts)
}
