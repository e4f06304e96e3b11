package failing

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	return nil, errors.New("upstream API answered 503")
}
