package args

import (
	"flag"
	"fmt"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

// A block is a program named "block" without arguments, not the kernel's argv.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	limit := flag.Int("limit", 10, "rows")
	flag.Parse()
	fmt.Println(os.Args, flag.Args(), flag.NArg(), *limit)
	return sdk.NewTable(sdk.Int64("n")), nil
}
