package gopanic

import (
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// A panic inside a goroutine would kill the process; the kernel reports it.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s []int
		_ = s[3]
	}()
	wg.Wait()
	return sdk.NewTable(sdk.Int64("x")), nil
}
