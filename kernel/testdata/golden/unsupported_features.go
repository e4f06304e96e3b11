package newgo

import "github.com/stratahq/strata/blocks/sdk"

func pairs(yield func(int, int) bool) {}

func Pair[K comparable, V any](k K, v V) map[K]V { return map[K]V{k: v} }

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n := 0
	for i := range 10 {
		n += i
	}
	for a, b := range pairs {
		n += a + b
	}
	n = max(n, 3) + min(1, 2)
	m := map[string]int{"a": 1}
	clear(m)
	_ = Pair("a", 1)
	_ = Pair[string, int]("b", 2)
	return nil, nil
}
