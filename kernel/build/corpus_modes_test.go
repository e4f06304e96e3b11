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

// startupOutput are the programs that print while their package
// initializes (package variables' initializers, init functions): a
// compiled worker does that once when it starts, for all its runs, and
// sends it to its stderr (early_guard.go), so a run's stdout has the rest.
// Before the guard, that output corrupted the protocol stream and the
// worker died before ready, taking every block built into it along.
var startupOutput = map[string]string{"adv4_init_output": "main sees [trim upper] [upper trim]\n\"HELLO\"\n"}

// TestCorpusCompiled runs every program of kernel/testdata/corpus as a block
// on one compiled worker: its stdout must be exactly what `go run` printed,
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
	pools := NewPools(supervisor.Config{}, 2)
	t.Cleanup(pools.Close)
	ex, release := pools.Acquire(w)
	t.Cleanup(release)
	for i, p := range progs {
		p, b := p, blocks[i]
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			req := &protocol.ExecRequest{Filename: b.File, Source: b.Source, Timeout: 10 * time.Second}
			res, _, err := ex.Exec(context.Background(), req, nil, &collect{})
			if err != nil {
				t.Fatal(err)
			}
			if code, ok := corpus.ExitCodes[p.Name]; ok {
				if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.Line == 0 || !strings.Contains(res.Error.Message, "os.Exit("+strconv.Itoa(code)+")") {
					t.Errorf("want os.Exit(%d) reported at its line, got %+v", code, res.Error)
				}
			} else if res.Error != nil {
				t.Fatalf("compiled run failed: %s %s (line %d); stdout so far:\n%s", res.Error.Kind, res.Error.Message, res.Error.Line, res.Stdout)
			}
			want := p.Want
			if w, ok := startupOutput[p.Name]; ok {
				want = w
			}
			if ownTypeNames[p.Name] {
				// %T and %#v name the package: the wrapper made main a block package.
				want = strings.ReplaceAll(want, "main.", corpus.BlockPackage+".")
			}
			if res.Stdout != want {
				t.Errorf("stdout differs from go run\n--- compiled\n%s\n--- go run\n%s", res.Stdout, want)
			}
		})
	}
}
