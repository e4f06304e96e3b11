package lowered

import (
	"fmt"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

type celsius float64

func Pair[K comparable, V any](k K, v V) map[K]V { return map[K]V{k: v} }

// Range over an integer, min, max, clear and inferred multi-parameter
// generics run interpreted (lowered on the same lines).
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("i"))
	for i := range 3 {
		t.Append(int64(i))
	}
	var fs []func() int64
	for i := range int64(3) {
		fs = append(fs, func() int64 { return i * 10 })
	}
	for _, f := range fs {
		fmt.Print(f(), " ")
	}
	n := 0
	for range 4 {
		n++
	}
	a, b := 4, 9
	fmt.Println(n, min(a, b), max(a, b, 7), min(2.5, 1), max("a", "b"), max(celsius(3), 4), min(time.Second, time.Minute))
	m := map[string]int{"x": 1}
	s := []int{1, 2, 3}
	clear(m)
	clear(s)
	fmt.Println(len(m), s, Pair("k", 1))
	return t, nil
}
