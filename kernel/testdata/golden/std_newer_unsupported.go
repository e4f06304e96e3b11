package newest

import (
	"errors"
	"io/fs"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

// errors.AsType is Go 1.26: not a bare "undefined", but needs compiled, here.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	_, err := os.Open("/nonexistent")
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return nil, pe
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
