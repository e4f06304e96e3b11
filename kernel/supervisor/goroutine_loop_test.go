package supervisor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

// goroutinesInALoop starts 3,000 goroutines from a loop, each adding its
// iteration's variable to a sum: Go prints 4498500.
const goroutinesInALoop = `package s

import (
	"fmt"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 3000; i++ {
		v := i
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n += v
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(n)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// A goroutine started from a loop by `go func() { … }()` read its closure's
// variables from the caller's live frame under yaegi: now and then the
// loop's next iteration had already replaced them, and the sum came out
// wrong (3 of 20 runs before interp.goLitSnapshot; it fails here with
// probability about 0.99 without it).
func TestGoroutineInLoopSeesItsIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("30 runs of 3,000 goroutines")
	}
	pool := NewPool(testConfig(), 1)
	t.Cleanup(pool.Close)
	for i := 0; i < 30; i++ {
		h := &collect{}
		res, _, err := pool.Exec(context.Background(), &protocol.ExecRequest{Filename: "s.go", Source: goroutinesInALoop, Timeout: time.Minute}, nil, h)
		if err != nil {
			t.Fatal(err)
		}
		if out := h.stdout.String() + res.Stdout; res.Error != nil || !strings.Contains(out, "4498500") {
			t.Fatalf("run %d: %+v, printed %q, want 4498500", i, res.Error, out)
		}
	}
}

// goroutinesViaAMethod is corpus adv5_errgroup_wg's second loop, 3,000
// times: each closure, handed to the block's own Go (which starts the
// goroutine), adds its iteration's variable. Go prints 4498500.
const goroutinesViaAMethod = `package s

import (
	"fmt"
	"sync"

	"github.com/stratahq/strata/blocks/sdk"
)

type group struct{ wg sync.WaitGroup }

func (g *group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var mu sync.Mutex
	var g group
	n := 0
	for i := 0; i < 3000; i++ {
		g.Go(func() {
			mu.Lock()
			n += i
			mu.Unlock()
		})
	}
	g.wg.Wait()
	fmt.Println(n)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`

// A closure made in a loop and handed to a function that starts a
// goroutine: a goroutine of an earlier iteration returning put an older
// closure (or none: "call of nil function") where the loop had just made
// the new one (see interp's lower_loop_closures.go; the deterministic
// case is interp's TestLoopClosureNotReplacedByAnEarlierOne). Corpus
// adv5_errgroup_wg failed so about once in 300 runs.
func TestGoroutineClosureFromALoopSeesItsIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("30 runs of 3,000 goroutines")
	}
	pool := NewPool(testConfig(), 1)
	t.Cleanup(pool.Close)
	for i := 0; i < 30; i++ {
		h := &collect{}
		res, _, err := pool.Exec(context.Background(), &protocol.ExecRequest{Filename: "s.go", Source: goroutinesViaAMethod, Timeout: time.Minute}, nil, h)
		if err != nil {
			t.Fatal(err)
		}
		if out := h.stdout.String() + res.Stdout; res.Error != nil || !strings.Contains(out, "4498500") {
			t.Fatalf("run %d: %+v, printed %q, want 4498500", i, res.Error, out)
		}
	}
}
