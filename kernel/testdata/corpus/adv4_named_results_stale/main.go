// Named results start at their zero value on every call. yaegi let a
// function write its results into its call site's slots and did not zero
// them at entry, so from a call site's second run (a call in a loop) a
// named result started with the previous call's value: sums accumulated
// across calls, a bare return gave the previous result, and a recovered
// panic returned the previous call's values where Go returns zeros.
package main

import (
	"fmt"
	"strconv"
	"strings"
)

type group struct {
	name string
	vals []float64
}

// stats accumulates into its named results, as summaries often do.
func stats(vals []float64) (sum float64, n int, maxv float64) {
	for i, v := range vals {
		sum += v
		n++
		if i == 0 || v > maxv {
			maxv = v
		}
	}
	return
}

// lookup assigns its result on one path only.
func lookup(m map[string]string, k string) (v string, found bool) {
	if s, ok := m[k]; ok {
		v, found = s, true
	}
	return
}

// parse recovers a failed conversion and returns zeros (named results).
func parse(s string) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("bad value %q", s)
		}
	}()
	return mustAtoi(s), nil
}

// ratio recovers a division by zero; its results have no names.
func ratio(a, b int) (int, bool) {
	defer func() { recover() }()
	return a / b, true
}

// blank has a result named _, set on one path only.
func blank(x int) (_ int, err error) {
	if x > 0 {
		return x, nil
	}
	return
}

func first[T any](xs []T) (v T, ok bool) {
	for _, x := range xs {
		return x, true
	}
	return
}

type tally struct{ bonus int }

func (t tally) total(xs []int) (sum int) {
	for _, x := range xs {
		sum += x + t.bonus
	}
	return
}

// shadow's parameter has the name of its result's type.
func shadow(strings2 []string) (b strings2, n int) {
	for range strings2 {
		n++
	}
	return
}

type strings2 struct{ s string }

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func main() {
	groups := []group{{"a", []float64{1, 2, 3}}, {"b", []float64{10}}, {"c", nil}}
	for _, g := range groups {
		sum, n, maxv := stats(g.vals)
		fmt.Println(g.name, sum, n, maxv)
	}
	m := map[string]string{"x": "1"}
	for _, k := range []string{"x", "y"} {
		v, ok := lookup(m, k)
		fmt.Printf("%s %q %v\n", k, v, ok)
	}
	for _, s := range []string{"7", "x", "8", ""} {
		n, err := parse(s)
		fmt.Println(n, err)
	}
	for _, d := range []int{2, 0} {
		q, ok := ratio(10, d)
		fmt.Println("ratio", q, ok)
	}
	for _, x := range []int{5, 0} {
		c, err := blank(x)
		fmt.Println("blank", c, err)
	}
	for _, xs := range [][]string{{"a"}, nil} {
		v, ok := first(xs)
		fmt.Printf("first %q %v\n", v, ok)
	}
	var total int
	for _, xs := range [][]int{{1, 2}, {3}} {
		total = tally{1}.total(xs)
		fmt.Println("total", total)
		_, n := shadow(strings.Fields("p q"))
		fmt.Println("shadow", n)
		lit := func(n int) (out []int) {
			for i := range n {
				out = append(out, i)
			}
			return
		}
		fmt.Println("lit", lit(len(xs)))
	}
}
