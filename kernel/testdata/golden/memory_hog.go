// run: memory_mb=200 timeout=20s
package hog

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var keep [][]byte
	for i := 0; i < 100000; i++ {
		b := make([]byte, 1<<20)
		b[0] = 1
		keep = append(keep, b)
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
