// run: input=orders:orders.csv input=customers:customers.csv
package join

import (
	"github.com/stratahq/strata/blocks/sdk"
)

// Two upstream tables bound by position; nulls flow through; Check passes.
func Transform(ctx *sdk.Context, orders, customers *sdk.Table) (*sdk.Table, error) {
	segment := map[string]string{}
	names := customers.Column("customer").Strings()
	for i, s := range customers.Column("segment").Strings() {
		segment[names[i]] = s
	}
	out := sdk.NewTable(sdk.Int64("id"), sdk.String("segment"), sdk.Float64("amount"), sdk.Bool("paid"))
	amount := orders.Column("amount")
	for i, id := range orders.Column("id").Int64s() {
		var a any
		if !amount.IsNull(i) {
			a = amount.Float64s()[i]
		}
		out.Append(id, segment[orders.Column("customer").Strings()[i]], a, orders.Column("paid").Bools()[i])
	}
	ctx.Log.Info("joined", "rows", out.Len(), "currency", ctx.Var("currency", "USD"))
	return out, nil
}

func Check(ctx *sdk.Context, out *sdk.Table) error {
	if out.Len() == 0 {
		return nil
	}
	return nil
}
