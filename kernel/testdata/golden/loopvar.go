package loopvar

import (
	"fmt"
	"sort"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

// Go 1.22 semantics: each iteration has its own variable, even in yaegi.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var fs []func() int
	for i := 0; i < 3; i++ {
		fs = append(fs, func() int { return i })
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var seen []string
	for _, name := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			seen = append(seen, name)
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Strings(seen)
	t := sdk.NewTable(sdk.Int64("closure"))
	for _, f := range fs {
		t.Append(f())
	}
	fmt.Println("goroutines saw", seen)
	return t, nil
}
