package badappend

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"), sdk.Float64("amount"))
	t.Append(1, 2.5)
	t.Append("two", 3.5)
	return t, nil
}
