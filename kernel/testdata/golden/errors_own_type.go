package ownerr

import (
	"errors"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

type NotFound struct{ Key string }

func (e *NotFound) Error() string { return "not found: " + e.Key }

// errors.As panicked and errors.Is missed on error types a block declares:
// now a precise "needs compiled" at the call, never a wrong answer.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	err := fmt.Errorf("lookup: %w", &NotFound{"k1"})
	var nf *NotFound
	if errors.As(err, &nf) {
		fmt.Println("found", nf.Key)
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
