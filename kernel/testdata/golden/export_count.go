// run: input=orders:orders.csv
package export

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Export(ctx *sdk.Context, in *sdk.Table) error {
	fmt.Printf("would export %d rows for %s\n", in.Len(), ctx.Partition.Key)
	return nil
}
