// run: input=orders:orders.csv
package needs2

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, orders, customers *sdk.Table) (*sdk.Table, error) {
	return orders, nil
}
