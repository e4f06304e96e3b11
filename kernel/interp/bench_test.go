package interp

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/protocol"
)

const benchBlock = `package orders

import (
	"fmt"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"), sdk.String("name"))
	for i := 0; i < 10; i++ {
		t.Append(int64(i), strings.Repeat("x", i))
	}
	fmt.Println("rows", t.Len())
	return t, nil
}
`

// BenchmarkExecEdited: an editor run of a block just edited (a new source,
// so no cached program): parse, type-check, classify, rewrite, a fresh
// interpreter, run. What analysis adds must stay cheap.
func BenchmarkExecEdited(b *testing.B) {
	e := NewExecutor()
	env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
	i := 0
	for b.Loop() {
		i++
		req := &protocol.ExecRequest{Filename: "orders.go", Source: benchBlock + fmt.Sprintf("// edit %d\n", i)}
		if _, res := e.Exec(context.Background(), req, nil, env); res.Error != nil {
			b.Fatal(res.Error)
		}
	}
}

// ordersLoader is the loader of issue 31's orders benchmark
// (projects/engine BenchmarkOrdersBackfill): 1,000 rows, three calls into
// compiled code (the SDK, math/rand) a row.
const ordersLoader = `package orders

import (
	"math/rand"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	day := ctx.Partition.Start.Unix() / 86400
	rng := rand.New(rand.NewSource(day))
	t := sdk.NewTable(sdk.String("day"), sdk.Int64("order_id"), sdk.Int64("customer_id"), sdk.Float64("amount"))
	for i := 0; i < 1000; i++ {
		t.Append(ctx.Partition.Key, day*1000+int64(i), rng.Int63n(200), float64(500+rng.Int63n(20000))/100)
	}
	return t, nil
}
`

// BenchmarkExecCachedLoader: one partition's run of the orders loader in
// the interpreter, its program cached (as every partition of a backfill
// after a kernel's first). What a kernel spends a partition, apart from
// the protocol; run with -cpuprofile to see the interpreter's share (its
// calls into compiled code go through reflect.Value.Call).
func BenchmarkExecCachedLoader(b *testing.B) {
	e := NewExecutor()
	env := &protocol.Env{Stdout: io.Discard, Stderr: io.Discard, Log: func(string, string) {}}
	req := &protocol.ExecRequest{Filename: "orders.go", Source: ordersLoader,
		Partition: protocol.PartitionWire{Key: "2023-01-01", Start: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)}}
	for b.Loop() {
		t, res := e.Exec(context.Background(), req, nil, env)
		if res.Error != nil {
			b.Fatal(res.Error)
		}
		if t.Len() != 1000 {
			b.Fatalf("%d rows, want 1000", t.Len())
		}
	}
}
