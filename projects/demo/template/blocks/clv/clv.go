// Package clv estimates each customer's lifetime value from the day's
// behaviour: average order value x expected orders a year x margin x
// expected lifetime, with subscribers expected to stay longer.
package clv

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, metrics *sdk.Table) (*sdk.Table, error) {
	margin, err := strconv.ParseFloat(ctx.Var("margin", "0.3"), 64)
	if err != nil {
		return nil, fmt.Errorf("variable margin: %w", err)
	}
	ids := metrics.Column("customer_id").Int64s()
	orders := metrics.Column("orders").Int64s()
	aov := metrics.Column("avg_order_value").Float64s()
	subscriber := metrics.Column("subscriber").Bools()

	out := sdk.NewTable(sdk.Int64("customer_id"), sdk.Float64("clv"), sdk.String("segment"))
	for i := 0; i < len(ids); i++ {
		perYear := 4.0 + 2.0*float64(orders[i])
		lifetime := 2.0
		if subscriber[i] {
			lifetime = 4.5
		}
		value := math.Round(aov[i]*perYear*margin*lifetime*100) / 100
		out.Append(ids[i], value, segmentOf(value))
	}
	return out, nil
}

func segmentOf(clv float64) string {
	switch {
	case clv >= 250:
		return "vip"
	case clv >= 100:
		return "regular"
	default:
		return "occasional"
	}
}

// Check refuses negative or missing values before they reach a product.
func Check(ctx *sdk.Context, out *sdk.Table) error {
	for i, v := range out.Column("clv").Float64s() {
		if v < 0 || math.IsNaN(v) {
			return fmt.Errorf("customer %d has clv %v", out.Column("customer_id").Int64s()[i], v)
		}
	}
	return nil
}
