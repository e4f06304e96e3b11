package loopmod

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var fs []func() int
	for i := 0; i < 6; i++ {
		fs = append(fs, func() int { return i })
		i++
	}
	return nil, nil
}
