package newexpr

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

type config struct{ retries *int }

// new(expr) is Go 1.26: classified as needs compiled at its line.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	c := config{retries: new(3)}
	fmt.Println(*c.retries)
	for i := range func(yield func(int) bool) { yield(1) } {
		fmt.Println(i)
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
