package nilmap

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	return build(), nil
}

func build() *sdk.Table {
	var counts map[string]int
	counts["x"]++
	return nil
}
