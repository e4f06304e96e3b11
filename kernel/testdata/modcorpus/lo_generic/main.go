package main

import (
	"fmt"
	"strings"

	"github.com/samber/lo"
)

func main() {
	names := []string{"ada", "bob", "ada", "cy", "bob", "dee"}
	fmt.Println(lo.Uniq(names))
	fmt.Println(lo.Map(names, func(s string, _ int) string { return strings.ToUpper(s) }))
	fmt.Println(lo.Filter([]int{1, 2, 3, 4, 5, 6}, func(n int, _ int) bool { return n%2 == 0 }))
	fmt.Println(lo.Sum([]int{1, 2, 3}), lo.Contains(names, "cy"), lo.IndexOf(names, "dee"))
	counts := lo.CountValues(names)
	fmt.Println(counts["ada"], counts["bob"], len(counts))
}
