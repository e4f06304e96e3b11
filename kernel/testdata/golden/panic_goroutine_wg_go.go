package gowg

import (
	"fmt"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// A goroutine that the standard library starts (sync.WaitGroup.Go) and
// that panics kills the interpreter's kernel, which then places the panic
// by the statement before the one that panicked (the var line here). The
// report points at the function instead and says the line is not known.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var wg sync.WaitGroup
	wg.Go(func() {
		fmt.Print("")
		var m map[string]int
		m["x"] = 1
	})
	wg.Wait()
	return sdk.NewTable(sdk.Int64("x")), nil
}
