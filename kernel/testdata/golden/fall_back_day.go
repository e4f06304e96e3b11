// run: partition=2024-11-03 tz=America/New_York
package fallback

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(ctx.Partition.Key, "lasts", ctx.Partition.Duration())
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("hours"))
	t.Append(ctx.Partition.Key, int64(ctx.Partition.Duration().Hours()))
	return t, nil
}
