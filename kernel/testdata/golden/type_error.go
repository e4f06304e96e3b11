package typos

import (
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("name"))
	var n int = "three"
	t.Append(strings.ToUpper(ctx.Partition.Kee))
	return t, nil
}
