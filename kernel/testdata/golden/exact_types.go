// run: partition=2024-03-10 tz=America/New_York
package orders

import (
	"math/big"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// Dates, wall times, uint64, int128 and decimals cross the kernel boundary
// exactly in both modes: the date is the partition's own (not the UTC date
// of its start), the wall time keeps its reading, no number passes a float.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Date("day"), sdk.Timestamp("wall"), sdk.Time("at"), sdk.Uint64("u"), sdk.Int128("h"), sdk.Decimal("x", 38, 10))
	huge, _ := new(big.Int).SetString("-170141183460469231731687303715884105728", 10)
	end := ctx.Partition.End.Add(-time.Hour) // 23:00 New York: the next day in UTC
	t.Append(end, end, end, uint64(18446744073709551615), huge, "1234567890123456789012345678.0123456789")
	t.Append(nil, nil, nil, nil, nil, "-0.5")
	return t, t.Err()
}
