// run: allow=syscall
package rawcalls

import (
	"fmt"
	"syscall"

	"github.com/stratahq/strata/blocks/sdk"
)

// With the opt-in, the whole syscall package is there (syscall.Exec vanished).
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	exec := syscall.Exec
	fmt.Println("have Exec:", exec != nil, "pid > 0:", syscall.Getpid() > 0)
	return sdk.NewTable(sdk.Int64("n")), nil
}
