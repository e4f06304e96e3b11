// Package raw_orders generates the shop's orders for one day. The data is
// synthetic but deterministic: the same day always yields the same orders,
// so re-runs, backfills and tests agree.
package raw_orders

import (
	"fmt"
	"math"
	"math/rand"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

var epoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// Load emits a few hundred to a few thousand orders: the customer base grows
// over the years, weekends are busier, and each customer has a stable taste.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	p := ctx.Partition
	day := int64(p.Start.Sub(epoch.In(p.Start.Location())).Hours() / 24)
	rng := rand.New(rand.NewSource(day*7919 + 17))

	customers := 2000 + int(day)*3 // the shop grows
	if customers > 8000 {
		customers = 8000
	}
	season := 1.0 + 0.25*math.Sin(2*math.Pi*float64(p.Start.YearDay())/365.0)
	if wd := p.Start.Weekday(); wd == time.Saturday || wd == time.Sunday {
		season *= 1.3
	}
	channels := []string{"web", "app", "store"}
	seconds := int64(p.Duration() / time.Second)

	out := sdk.NewTable(sdk.String("order_id"), sdk.Int64("customer_id"), sdk.Time("ordered_at"),
		sdk.Float64("amount"), sdk.String("channel"), sdk.Bool("subscription"))
	n := 0
	for c := 0; c < customers; c++ {
		taste := float64((c*2654435761)%1000) / 1000.0 // stable per customer
		if rng.Float64() > 0.15*season*(0.3+taste) {
			continue
		}
		n++
		at := p.Start.Add(time.Duration(rng.Int63n(seconds)) * time.Second)
		amount := math.Round((12+taste*80)*(0.6+rng.Float64())*100) / 100
		out.Append(fmt.Sprintf("%s-%05d", p.Key, n), int64(c), at, amount, channels[(c+n)%3], taste > 0.7)
	}
	ctx.Log.Info("generated orders", "orders", n, "customers", customers)
	return out, nil
}
