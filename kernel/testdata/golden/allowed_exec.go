// run: allow=os/exec
package shellok

import (
	"os/exec"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out, err := exec.Command("echo", "hello").Output()
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("out"))
	t.Append(strings.TrimSpace(string(out)))
	return t, nil
}
