// run: input=orders:orders.csv
package checked

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, orders *sdk.Table) (*sdk.Table, error) {
	return orders, nil
}

// Check fails the run: an amount is missing.
func Check(ctx *sdk.Context, out *sdk.Table) error {
	c := out.Column("amount")
	for i := 0; i < out.Len(); i++ {
		if c.IsNull(i) {
			return fmt.Errorf("amount is null in row %d", i)
		}
	}
	return nil
}
