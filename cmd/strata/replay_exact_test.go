package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A pipeline whose blocks read what a replay must pin: rolling sums the
// source's earlier days through a ctx.Product window (not an upstream),
// and counter numbers its runs with ctx.State.
const exactPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {source: "%s"}
blocks:
  - id: src
  - id: rolling
  - id: counter
`

const exactSrc = `package src

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	return ctx.Query("SELECT day, v FROM read_csv(?, header = true, columns = {'day': 'VARCHAR', 'v': 'BIGINT'}) WHERE day = ?",
		ctx.Var("source", ""), ctx.Partition.Key)
}
`

const exactRolling = `package rolling

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("day"), sdk.Int64("before"))
	var sum int64
	if ctx.Partition.Key != "2024-01-01" {
		prev := ctx.Partition.Start.AddDate(0, 0, -1).Format("2006-01-02")
		t, err := ctx.Product("win__src", sdk.Window{From: "2024-01-01", To: prev})
		if err != nil {
			return nil, err
		}
		for _, v := range t.Column("v").Int64s() {
			sum += v
		}
	}
	out.Append(ctx.Partition.Key, sum)
	return out, nil
}
`

const exactCounter = `package counter

import (
	"strconv"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	n, _ := strconv.ParseInt(ctx.State().Get("runs"), 10, 64)
	n++
	ctx.State().Set("runs", strconv.FormatInt(n, 10))
	out := sdk.NewTable(sdk.String("day"), sdk.Int64("run"))
	out.Append(ctx.Partition.Key, n)
	return out, nil
}
`

// TestReplayPinsWindowsAndState: a replay runs each block on what its
// stored version's run saw. An upstream partition republished since (read
// through a ctx.Product window) and a state moved on since do not make
// unchanged code report "changed"; a recorded input that retention has
// removed since fails the partition and says so.
func TestReplayPinsWindowsAndState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	contains := func(out string, wants ...string) {
		t.Helper()
		mustContain(t, out, wants...)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(0, "init", dir)
	csv := filepath.Join(t.TempDir(), "src.csv")
	write(csv, "day,v\n2024-01-01,1\n2024-01-02,2\n2024-01-03,3\n2024-01-04,4\n2024-01-05,5\n")
	write(filepath.Join(dir, "pipelines", "win.yaml"), strings.Replace(exactPipeline, "%s", csv, 1))
	write(filepath.Join(dir, "blocks", "src", "src.go"), exactSrc)
	write(filepath.Join(dir, "blocks", "rolling", "rolling.go"), exactRolling)
	write(filepath.Join(dir, "blocks", "counter", "counter.go"), exactCounter)
	run(0, "backfill", dir, "win", "--from", "2024-01-01", "--to", "2024-01-05", "--concurrency", "1", "--engine", "interp")

	// Republish 2024-01-02 with another value: its own blocks are
	// recomputed; the later days' stored rolling read the old value.
	write(csv, "day,v\n2024-01-01,1\n2024-01-02,20\n2024-01-03,3\n2024-01-04,4\n2024-01-05,5\n")
	run(0, "run", dir, "win", "--partition", "2024-01-02", "--engine", "interp")
	replay := []string{"test", dir, "--replay", "win", "--engine", "interp", "--expect-unchanged", "win__rolling", "--expect-unchanged", "win__counter"}
	contains(run(0, replay...), "5 partitions: 5 unchanged, 0 changed, 0 failed", "expect unchanged win__rolling: passed", "expect unchanged win__counter: passed")

	// Two more runs of 2024-01-02: retention (3 versions) drops version 1
	// of win__src 2024-01-02, which 2024-01-03's rolling read.
	run(0, "run", dir, "win", "--partition", "2024-01-02", "--engine", "interp")
	run(0, "run", dir, "win", "--partition", "2024-01-02", "--engine", "interp")
	out := run(1, append(replay, "--from", "2024-01-03", "--to", "2024-01-03")...)
	contains(out, "1 partitions: 0 unchanged, 0 changed, 1 failed", "win__src partition 2024-01-02 version 1", "retention")
}
