package boom

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("x"))
	if t.Len() == 0 {
		panic("no rows for " + ctx.Partition.Key)
	}
	return t, nil
}
