package iterators

import (
	"fmt"
	"iter"

	"github.com/stratahq/strata/blocks/sdk"
)

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// iter (Go 1.23) is not in the interpreter: classified, with the reason.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	for v := range count(3) {
		fmt.Println(v)
	}
	return sdk.NewTable(sdk.Int64("n")), nil
}
