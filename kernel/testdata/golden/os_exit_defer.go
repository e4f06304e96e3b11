package exitdefer

import (
	"fmt"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

// os.Exit ends the run at its line without running deferred calls, as in Go.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	defer fmt.Println("deferred: must not print")
	fmt.Println("before exit")
	if ctx.Partition.Key != "" {
		os.Exit(2)
	}
	return nil, nil
}
