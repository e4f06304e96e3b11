package main

import (
	"fmt"
	"sort"
	"strings"
)

func sum(prefix string, nums ...int) string {
	t := 0
	for _, n := range nums {
		t += n
	}
	return fmt.Sprintf("%s%d(%d)", prefix, t, len(nums))
}

type op func(a, b float64) (float64, error)

func main() {
outer:
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if j == 2 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			fmt.Print(i, j, " ")
		}
	}
	fmt.Println()
	fmt.Println(sum("a"), sum("b", 1, 2), sum("c", []int{4, 5, 6}...))
	parts := []any{"x", 1, true}
	fmt.Println(parts...)
	ops := map[string]op{
		"+": func(a, b float64) (float64, error) { return a + b, nil },
		"/": func(a, b float64) (float64, error) {
			if b == 0 {
				return 0, fmt.Errorf("divide %v by zero", a)
			}
			return a / b, nil
		},
	}
	ops["*"] = func(a, b float64) (float64, error) { return a * b, nil }
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		r, err := ops[n](6, 0)
		fmt.Println(n, r, err)
	}
	if f, ok := ops["-"]; !ok && f == nil {
		fmt.Println("no minus")
	}
	var sb strings.Builder
sw:
	switch x := 5; {
	case x > 3:
		for k := 0; k < 10; k++ {
			if k == 2 {
				break sw
			}
			sb.WriteString(fmt.Sprint(k))
		}
	}
	fmt.Println(sb.String())
	i := 0
loop:
	if i < 3 {
		i++
		goto loop
	}
	fmt.Println(i)
}
