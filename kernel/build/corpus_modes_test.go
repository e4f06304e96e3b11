package build

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// ownTypeNames are the programs that print their own types' names.
var ownTypeNames = map[string]bool{"fmt_verbs": true, "structs_methods": true, "adv_generic_infer": true, "k9c_types_reflect_name": true, "k9c_json_type_error": true, "k9c_json_named_field_error": true, "k9c_template_error": true, "adv5_template_pipeline": true}

// TestCorpusCompiled runs every program of kernel/testdata/corpus as a block
// on one compiled worker, twice: its stdout must be exactly what `go run` printed,
// the programs the interpreter refuses ("needs compiled") included. (The
// interpreted side is kernel/supervisor's TestCorpus, against the same
// stdout.golden files.)
func TestCorpusCompiled(t *testing.T) {
	tc := toolchain(t)
	progs, err := corpus.Load("../testdata/corpus")
	if err != nil || len(progs) < 60 {
		t.Fatalf("corpus: %d programs, %v", len(progs), err)
	}
	var blocks []Block
	for _, p := range progs {
		blocks = append(blocks, Block{File: p.Name + "/main.go", Source: corpus.Block(p.Source)})
	}
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	// One worker, so each program's second run is on the worker that ran
	// its first: it must print what go run prints too, with nothing left
	// of the first (package state is set again before each run).
	pools := NewPools(supervisor.Config{}, 1)
	t.Cleanup(pools.Close)
	ex, release := pools.Acquire(w)
	t.Cleanup(release)
	for i, p := range progs {
		p, b := p, blocks[i]
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			req := &protocol.ExecRequest{Filename: b.File, Source: b.Source, Timeout: 10 * time.Second}
			for run := 1; run <= 2; run++ {
				res, _, err := ex.Exec(context.Background(), req, nil, &collect{})
				if err != nil {
					t.Fatal(err)
				}
				checkCorpusRun(t, p, res, run)
			}
		})
	}
}

// checkCorpusRun compares run number run of p with what go run printed.
func checkCorpusRun(t *testing.T, p corpus.Program, res *protocol.Result, run int) {
	t.Helper()
	if code, ok := corpus.ExitCodes[p.Name]; ok {
		if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.Line == 0 || !strings.Contains(res.Error.Message, "os.Exit("+strconv.Itoa(code)+")") {
			t.Errorf("run %d: want os.Exit(%d) reported at its line, got %+v", run, code, res.Error)
		}
	} else if res.Error != nil {
		t.Fatalf("run %d: compiled run failed: %s %s (line %d); stdout so far:\n%s", run, res.Error.Kind, res.Error.Message, res.Error.Line, res.Stdout)
	}
	want := p.Want
	if ownTypeNames[p.Name] {
		// %T and %#v name the package: the wrapper made main a block package.
		want = strings.ReplaceAll(want, "main.", corpus.BlockPackage+".")
	}
	if res.Stdout != want {
		t.Errorf("run %d: stdout differs from go run\n--- compiled\n%s\n--- go run\n%s", run, res.Stdout, want)
	}
}
