// run: timeout=1s
package blocked

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	ch := make(chan int)
	<-ch
	return nil, nil
}
