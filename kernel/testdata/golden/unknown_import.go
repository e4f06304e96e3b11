package thirdparty

import (
	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	_ = uuid.New()
	return nil, nil
}
