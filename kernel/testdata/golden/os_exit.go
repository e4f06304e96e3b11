package exiting

import (
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	os.Exit(3)
	return nil, nil
}
