// run: timeout=2s
package stdin

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

// Reading stdin read the kernel's protocol pipe and hung; a block's stdin is empty.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var s string
	n, err := fmt.Scanln(&s)
	fmt.Println("Scanln:", n, err)
	sc := bufio.NewScanner(os.Stdin)
	fmt.Println("Scan:", sc.Scan(), sc.Err())
	b, err := io.ReadAll(os.Stdin)
	fmt.Println("ReadAll:", len(b), err)
	return sdk.NewTable(sdk.Int64("n")), nil
}
