package supervisor

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// TestLargeTablesShared: between a real coordinator and kernel, large
// tables (the exec's input, a host reply, the result) go through the
// kernel's shared files and arrive intact, nulls and strings included; the
// files are removed with the kernel.
func TestLargeTablesShared(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	if runtime.GOOS == "linux" && (k.ready == nil || !k.ready.SharedTables) {
		t.Fatalf("kernel did not agree to shared tables: %+v", k.ready)
	}
	const n = 60_000
	in := sdk.NewTable(sdk.Int64("id"), sdk.String("name"), sdk.Float64("x"))
	for i := 0; i < n; i++ {
		if i%1000 == 7 {
			in.Append(nil, nil, nil)
			continue
		}
		in.Append(i, "row-"+string(rune('a'+i%26)), float64(i)/4)
	}
	const src = `package echo

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	extra, err := ctx.Query("select the big one")
	if err != nil {
		return nil, err
	}
	out := sdk.NewTable(sdk.Int64("id"), sdk.String("name"), sdk.Float64("x"), sdk.Int64("extra"))
	ids, names, xs, more := in.Column("id"), in.Column("name"), in.Column("x"), extra.Column("v").Int64s()
	for i := 0; i < in.Len(); i++ {
		out.Append(ids.Value(i), names.Value(i), xs.Value(i), more[i])
	}
	return out, nil
}
`
	extra := sdk.NewTable(sdk.Int64("v"))
	for i := 0; i < n; i++ {
		extra.Append(int64(i) * 3)
	}
	h := &collect{answer: func(*protocol.HostCall) (*sdk.Table, error) { return extra, nil }}
	req := &protocol.ExecRequest{Filename: "echo.go", Source: src, Inputs: []string{"in"}, Timeout: time.Minute}
	for round := 0; round < 2; round++ {
		res, out := k.Exec(context.Background(), req, []*sdk.Table{in}, h)
		if res.Error != nil {
			t.Fatal(res.Error)
		}
		if out.Len() != n {
			t.Fatalf("round %d: %d rows back, want %d", round, out.Len(), n)
		}
		for i := 0; i < n; i += 1 + i%37 {
			for j, c := range in.Columns() {
				if got, want := out.Columns()[j].Value(i), c.Value(i); got != want {
					t.Fatalf("round %d row %d %s: %v, want %v", round, i, c.Name, got, want)
				}
			}
			if got := out.Column("extra").Int64s()[i]; got != int64(i)*3 {
				t.Fatalf("round %d row %d extra: %d", round, i, got)
			}
		}
	}
	dir := k.sharedDir
	if dir == "" {
		return
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("shared dir while the kernel runs: %v", err)
	}
	k.Close()
	select { // Close may leave a slow kernel to exit on its own
	case <-k.dead:
	case <-time.After(time.Minute):
		t.Fatal("kernel did not exit")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("shared dir %s still there after Close: %v", dir, err)
	}
}
