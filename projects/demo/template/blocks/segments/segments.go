// Package segments is a dynamic block: each output row (one per customer
// segment, named by its key column) spawns a child run of segment_stats.
package segments

import (
	"sort"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, clv *sdk.Table) (*sdk.Table, error) {
	counts := map[string]int64{}
	for _, s := range clv.Column("segment").Strings() {
		counts[s]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := sdk.NewTable(sdk.String("key"), sdk.Int64("customers"))
	for _, k := range keys {
		out.Append(k, counts[k])
	}
	return out, nil
}
