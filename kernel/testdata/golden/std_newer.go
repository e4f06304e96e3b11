package newer

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

type person struct {
	name string
	age  int
}

// slices and maps of Go 1.21+: Sort and friends were undefined; Clone,
// Equal, maps.Clone failed inside the interpreter's own slices.go/maps.go.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	xs := []int{5, 2, 8, 1}
	ys := slices.Clone(xs)
	slices.Sort(ys)
	fmt.Println(xs, ys, slices.IsSorted(ys), slices.Equal(xs, ys), slices.Max(xs), slices.Min(xs))
	people := []person{{"ann", 41}, {"bob", 29}, {"cy", 35}}
	slices.SortFunc(people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
	fmt.Println(people)
	i, found := slices.BinarySearch(ys, 5)
	fmt.Println(i, found, slices.Index(xs, 8), slices.Contains(xs, 3))
	m := map[string]int{"a": 1, "b": 2}
	m2 := maps.Clone(m)
	m2["c"] = 3
	fmt.Println(maps.Equal(m, m2), len(m), len(m2))
	dups := []int{1, 1, 2, 2, 3}
	words := strings.Fields("b c a")
	slices.Sort(words)
	fmt.Println(strings.Join(words, ","), slices.Compact(dups))
	return sdk.NewTable(sdk.Int64("n")), nil
}
