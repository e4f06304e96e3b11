// Package segment_report is the reduce after the per-segment fan-out: it
// receives the union of every segment_stats child and adds each segment's
// share of the total value.
package segment_report

import (
	"math"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, stats *sdk.Table) (*sdk.Table, error) {
	totals := stats.Column("total_clv").Float64s()
	sum := 0.0
	for _, v := range totals {
		sum += v
	}
	out := sdk.NewTable(sdk.String("segment"), sdk.Int64("customers"), sdk.Float64("total_clv"), sdk.Float64("share"))
	for i, seg := range stats.Column("segment").Strings() {
		share := 0.0
		if sum > 0 {
			share = math.Round(totals[i]/sum*10000) / 10000
		}
		out.Append(seg, stats.Column("customers").Int64s()[i], totals[i], share)
	}
	return out, nil
}
