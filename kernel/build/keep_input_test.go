package build

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// TestCompiledBlockKeepsItsInput: a compiled block's package variables
// are set again before each run (package_reset.go), but a block can still
// keep its input table (and the slices of its columns) for the next run
// elsewhere: here in expvar's registry, which is the standard library's. The tables travel through shared files
// that are rewritten for every run; what the block kept must still hold
// the earlier run's values, and the tables the coordinator got back must
// keep theirs after later runs. The block returns its input unchanged
// (its columns come back as references to the coordinator's own), returns
// a computed column beside an input one, changes its input in place and
// returns it (by value: the change must arrive), and changes the slices it
// kept from an earlier run.
func TestCompiledBlockKeepsItsInput(t *testing.T) {
	tc := toolchain(t)
	const src = `package keep

import (
	"expvar"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

type keptInput struct {
	last    *sdk.Table
	lastIDs []int64
}

func (*keptInput) String() string { return "{}" }

func kept() *keptInput {
	if k, ok := expvar.Get("strata_keep").(*keptInput); ok {
		return k
	}
	k := &keptInput{}
	expvar.Publish("strata_keep", k)
	return k
}

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	k := kept()
	last, lastIDs := k.last, k.lastIDs
	if last != nil {
		var sum int64
		for _, v := range lastIDs {
			sum += v
		}
		fmt.Println("previous", sum, last.Column("amount").Float64s()[1])
		lastIDs[0] = -1 // the block's own copy: nobody else may see this
	}
	k.last, k.lastIDs = in, in.Column("id").Int64s()
	if ctx.Vars["mode"] == "inplace" {
		in.Column("id").Int64s()[7] = 7777777
		return in, nil
	}
	if ctx.Vars["mode"] == "double" {
		ids := in.Column("id").Int64s()
		doubled := make([]int64, len(ids))
		for i, v := range ids {
			doubled[i] = 2 * v
		}
		out := sdk.NewTable()
		out.AddColumn(sdk.Int64sFrom("id", doubled, nil))
		out.AddColumn(in.Column("amount"))
		return out, nil
	}
	return in, nil
}
`
	k := startWorker(t, tc, Block{File: "blocks/keep/keep.go", Source: src})

	const n = 100_000 // large enough for the shared files
	input := func(round int) *sdk.Table {
		ids, amounts := make([]int64, n), make([]float64, n)
		for i := range ids {
			ids[i], amounts[i] = int64(round*n+i), float64(round)+float64(i)/8
		}
		t := sdk.NewTable()
		t.AddColumn(sdk.Int64sFrom("id", ids, nil))
		t.AddColumn(sdk.Float64sFrom("amount", amounts, nil))
		return t
	}
	sum := func(round int) int64 { return int64(n)*int64(round*n) + int64(n)*(n-1)/2 }
	var outs []*sdk.Table
	modes := []string{"same", "double", "inplace", "same", "double"}
	for round, mode := range modes {
		req := &protocol.ExecRequest{Filename: "blocks/keep/keep.go", Source: src, Inputs: []string{"in"},
			Vars: map[string]string{"mode": mode}, Timeout: time.Minute}
		res, out := k.Exec(context.Background(), req, []*sdk.Table{input(round)}, &collect{})
		if res.Error != nil {
			t.Fatalf("round %d: %v", round, res.Error)
		}
		if round > 0 {
			// The kept ids were changed in place once (ids[0] = -1) only
			// after this sum, so the sum is the earlier input's own.
			prev := sum(round - 1)
			if modes[round-1] == "inplace" { // the block's own change to what it kept
				prev += 7777777 - int64((round-1)*n+7)
			}
			want := fmt.Sprintf("previous %d %v\n", prev, float64(round-1)+0.125)
			if res.Stdout != want {
				t.Errorf("round %d: block saw %q, want %q", round, res.Stdout, want)
			}
		}
		outs = append(outs, out)
	}
	for round, out := range outs {
		ids, amounts := out.Column("id").Int64s(), out.Column("amount").Float64s()
		f := int64(1)
		if modes[round] == "double" {
			f = 2
		}
		for i := 0; i < n; i += 1 + i%101 {
			want := f * int64(round*n+i)
			if modes[round] == "inplace" && i == 7 {
				want = 7777777
			}
			if ids[i] != want || amounts[i] != float64(round)+float64(i)/8 {
				t.Fatalf("output of round %d, row %d: id %d amount %v after later runs", round, i, ids[i], amounts[i])
			}
		}
	}
}
