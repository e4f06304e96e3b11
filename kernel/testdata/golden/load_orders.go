// run: partition=2024-03-10 tz=America/New_York
package orders

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

// The example block, on the day New York springs forward: 23 hours.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"), sdk.Time("at"), sdk.Float64("amount"))
	for i := 0; i < 3; i++ {
		t.Append(int64(i), ctx.Partition.Start, 9.5*float64(i))
	}
	fmt.Println("loaded", t.Len(), "rows for", ctx.Partition.Key)
	fmt.Println("partition lasts", ctx.Partition.Duration(), "from", ctx.Partition.Start.Format("2006-01-02 15:04 MST"), "to", ctx.Partition.End.Format("2006-01-02 15:04 MST"))
	return t, nil
}
