package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// ship exports src's rows by appending a line to the file out names, with
// its export key: the file counts the side effects. While the file
// fail_once names does not exist, an attempt writes a partial line,
// creates it and fails (an export that failed midway). gate fails while
// gate_fail is "yes", failing the run after ship completed.
const exportPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
variables: {out: "%s", fail_once: "%s", gate_fail: "%s"}
retries: {attempts: 1, backoff: 1ms}
blocks:
  - id: src
  - id: ship
    upstream: [src]
  - id: gate
    upstream: [src]
`

const exportSrcBlock = `package src

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"))
	t.Append(int64(1))
	t.Append(int64(2))
	return t, nil
}
`

const shipBlock = `package ship

import (
	"errors"
	"fmt"
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func Export(ctx *sdk.Context, src *sdk.Table) error {
	f, err := os.OpenFile(ctx.Var("out", ""), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	key := ctx.ExportKey()
	if key.IsZero() {
		return errors.New("no export key")
	}
	if marker := ctx.Var("fail_once", ""); marker != "" {
		if _, err := os.Stat(marker); err != nil {
			fmt.Fprintf(f, "partial %s\n", key)
			if err := os.WriteFile(marker, nil, 0o644); err != nil {
				return err
			}
			return errors.New("destination went away midway")
		}
	}
	_, err = fmt.Fprintf(f, "done %s rows=%d\n", key, src.Len())
	return err
}
`

const gateBlock = `package gate

import (
	"errors"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, src *sdk.Table) (*sdk.Table, error) {
	if ctx.Var("gate_fail", "") == "yes" {
		return nil, errors.New("gate closed")
	}
	return src, nil
}
`

type exportEnv struct {
	*env
	out string
}

func newExportEnv(t *testing.T, failOnce, gateFail string) *exportEnv {
	t.Helper()
	out := filepath.Join(t.TempDir(), "destination.txt")
	e := newEnv(t, false, map[string]string{
		"pipelines/p.yaml":    sprintf(exportPipeline, out, failOnce, gateFail),
		"blocks/src/src.go":   exportSrcBlock,
		"blocks/ship/ship.go": shipBlock,
		"blocks/gate/gate.go": gateBlock,
	})
	return &exportEnv{env: e, out: out}
}

// lines is what the destination holds.
func (e *exportEnv) lines() []string {
	e.t.Helper()
	b, err := os.ReadFile(e.out)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func (e *exportEnv) setGate(v string) {
	e.t.Helper()
	p := filepath.Join(e.dir, "pipelines", "p.yaml")
	b, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	s := strings.Replace(string(b), `gate_fail: "yes"`, sprintf(`gate_fail: "%s"`, v), 1)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		e.t.Fatal(err)
	}
	e.reload()
}

func outcome(res *RunResult, block string) *BlockOutcome {
	for _, o := range res.Blocks {
		if o.Block == block {
			return o
		}
	}
	return nil
}

// An export that failed midway runs again with the same key.
func TestExportLedgerRetrySameKey(t *testing.T) {
	e := newExportEnv(t, filepath.Join(t.TempDir(), "failed-once"), "")
	res := e.run("p", "2024-01-01")
	e.mustSucceed(res)
	if o := outcome(res, "ship"); o == nil || o.Attempts != 2 {
		t.Fatalf("ship outcome %+v, want 2 attempts", o)
	}
	want := []string{"partial p__ship/2024-01-01/1", "done p__ship/2024-01-01/1 rows=2"}
	if got := e.lines(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("destination %q, want %q", got, want)
	}
	exs, err := e.wh.Exports(context.Background(), "p__ship", "2024-01-01")
	if err != nil || len(exs) != 1 || !exs[0].Done() || exs[0].RunID != res.RunID+"/ship" {
		t.Fatalf("ledger %+v %v, want one completed export of run %s", exs, err, res.RunID)
	}
}

// A run that exported and then failed, resumed under its id, does not
// export again; a new run of the partition is a new export (version 2).
func TestExportLedgerResumeDoesNotRepeat(t *testing.T) {
	e := newExportEnv(t, "", "yes")
	res, err := e.eng.Run(context.Background(), "p", "2024-01-01", RunOptions{RunID: "run-export-1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateFailed {
		t.Fatalf("run = %s, want failed (gate)", res.State)
	}
	if got := e.lines(); len(got) != 1 || got[0] != "done p__ship/2024-01-01/1 rows=2" {
		t.Fatalf("destination after the failed run: %q", got)
	}
	e.setGate("")
	res, err = e.eng.Run(context.Background(), "p", "2024-01-01", RunOptions{RunID: "run-export-1"})
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	if got := e.lines(); len(got) != 1 {
		t.Fatalf("destination after the resumed run: %q, want the one export", got)
	}
	if o := outcome(res, "ship"); o == nil || !strings.Contains(o.Log, "not run again") {
		t.Fatalf("ship outcome %+v, want a log saying it was not run again", o)
	}
	e.mustSucceed(e.run("p", "2024-01-01"))
	if got := e.lines(); len(got) != 2 || got[1] != "done p__ship/2024-01-01/2 rows=2" {
		t.Fatalf("destination after a new run: %q, want a second export under version 2", got)
	}
}

// A redelivered export (the coordinator's check passed, the ledger has it
// completed by the time a kernel takes it) is not run: the kernel asks the
// ledger itself.
func TestExportLedgerKernelChecks(t *testing.T) {
	e := newExportEnv(t, "", "")
	ctx := context.Background()
	ex, err := e.wh.BeginExport(ctx, "p__ship", "2024-01-01", "elsewhere/ship")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.wh.CompleteExport(ctx, ex.Key); err != nil {
		t.Fatal(err)
	}
	in := sdk.NewTable(sdk.Int64("id"))
	in.Append(int64(7))
	req := &protocol.ExecRequest{Filename: "blocks/ship/ship.go", Source: shipBlock, Entry: "Export", Inputs: []string{"src"},
		Vars: map[string]string{"out": e.out}, Export: &ex.Key}
	h := &ledgerHandler{e: e.eng}
	res, _, err := e.pool.Exec(ctx, req, []*sdk.Table{in}, h)
	if err != nil || res.Error != nil || !res.ExportSkipped {
		t.Fatalf("exec: %v %+v, want skipped", err, res)
	}
	if got := e.lines(); len(got) != 0 {
		t.Fatalf("destination %q, want nothing", got)
	}
	// A key the ledger has not completed runs, and is completed by the kernel.
	ex2, err := e.wh.BeginExport(ctx, "p__ship", "2024-01-01", "other/ship")
	if err != nil {
		t.Fatal(err)
	}
	req.Export = &ex2.Key
	res, _, err = e.pool.Exec(ctx, req, []*sdk.Table{in}, h)
	if err != nil || res.Error != nil || res.ExportSkipped {
		t.Fatalf("exec: %v %+v, want run", err, res)
	}
	if got := e.lines(); len(got) != 1 || got[0] != "done p__ship/2024-01-01/2 rows=1" {
		t.Fatalf("destination %q", got)
	}
	if got, err := e.wh.LookupExport(ctx, ex2.Key); err != nil || !got.Done() {
		t.Fatalf("ledger %+v %v, want completed", got, err)
	}
}

// ledgerHandler answers a kernel's host calls with the engine's.
type ledgerHandler struct{ e *Engine }

func (h *ledgerHandler) Stream(string, string) {}
func (h *ledgerHandler) Log(protocol.LogLine)  {}
func (h *ledgerHandler) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	return h.e.HostCall(ctx, c)
}

// An Export block publishes no version to keep a state with: setting one
// is refused, not dropped.
func TestExportSettingStateIsRefused(t *testing.T) {
	e := newExportEnv(t, "", "")
	writeFiles(t, e.dir, map[string]string{"blocks/ship/ship.go": strings.Replace(shipBlock,
		"key := ctx.ExportKey()", `ctx.State().Set("last", "1")
	key := ctx.ExportKey()`, 1)})
	e.reload()
	res := e.run("p", "2024-01-01")
	o := outcome(res, "ship")
	if res.State != StateFailed || o == nil || !strings.Contains(o.Error, "an Export block publishes no version") {
		t.Fatalf("run %s, ship %+v: want it refused", res.State, o)
	}
}
