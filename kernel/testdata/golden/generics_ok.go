package gen

import (
	"slices"

	"github.com/stratahq/strata/blocks/sdk"
)

func Sum[T int64 | float64](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	xs := []float64{1.5, 2.5}
	t := sdk.NewTable(sdk.Float64("sum"), sdk.Bool("has_two"))
	t.Append(Sum(xs), slices.Contains(xs, 2.5))
	return t, nil
}
