// Package segment_stats runs once per segment (a child of the dynamic
// segments block): ctx.Item is that segment's row.
package segment_stats

import (
	"math"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, segment, clv *sdk.Table) (*sdk.Table, error) {
	key := segment.Column("key").Strings()[0]
	values := clv.Column("clv").Float64s()
	var n int64
	var total, best float64
	for i, s := range clv.Column("segment").Strings() {
		if s != key {
			continue
		}
		n++
		total += values[i]
		if values[i] > best {
			best = values[i]
		}
	}
	avg := 0.0
	if n > 0 {
		avg = math.Round(total/float64(n)*100) / 100
	}
	out := sdk.NewTable(sdk.String("segment"), sdk.Int64("customers"), sdk.Float64("total_clv"), sdk.Float64("avg_clv"), sdk.Float64("max_clv"))
	out.Append(key, n, math.Round(total*100)/100, avg, best)
	return out, nil
}
