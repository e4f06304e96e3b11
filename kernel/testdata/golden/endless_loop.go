// run: timeout=1s
package spin

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n := 0
	for {
		n++
	}
	return nil, nil
}
