package later

import (
	"fmt"
	"sort"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// Closures handed to functions that run them later saw the last loop value.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var mu sync.Mutex
	var got []int
	var wg sync.WaitGroup
	for i := 1; i <= 5; i++ {
		wg.Go(func() {
			mu.Lock()
			got = append(got, i)
			mu.Unlock()
		})
	}
	wg.Wait()
	sort.Ints(got)
	fmt.Println("wg.Go saw", got)
	var once []func()
	for _, name := range []string{"a", "b", "c"} {
		once = append(once, sync.OnceFunc(func() { fmt.Println("once", name) }))
	}
	for _, f := range once {
		f()
		f()
	}
	n := 1
	late := sync.OnceFunc(func() { fmt.Println("late sees", n) })
	n = 2
	late()
	return sdk.NewTable(sdk.Int64("n")), nil
}
