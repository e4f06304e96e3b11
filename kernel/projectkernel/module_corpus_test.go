package projectkernel

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

var update = flag.Bool("update", false, "rewrite the module corpus' stdout.golden with go run")

// modNeedsCompiled are the module corpus programs the project kernel sends
// to compiled mode, with the reason it must give at their line.
var modNeedsCompiled = map[string]string{
	"lo_generic": "lo.Uniq is not in the project kernel's symbol tables of github.com/samber/lo",
	// parquet.SchemaOf of a block's struct printed "message {", without
	// the type's name, before this was routed.
	"parquet_roundtrip": "a value of Order, a type the block declares, passed to parquet.SchemaOf",
	"yaml_roundtrip":    "a value of Source, a type the block declares, passed to yaml.Unmarshal",
	// The standard library's own conservative check.
	"yaml_multidoc": "%T of a value that can be of the block's own type",
	// Was "impossible type assertion … (missing method init)", a type
	// error for valid Go: reflect hides a concrete type's unexported methods.
	"arrow_records": "the interpreter's symbol tables do not carry the unexported method init",
}

// TestModuleCorpus runs every program of kernel/testdata/modcorpus (plain
// programs importing popular modules, with what `go run` printed) as a
// block twice: interpreted in the project kernel built for the corpus'
// imports, and compiled against the same go.mod. Both must print exactly
// what go run printed, or, for modNeedsCompiled, the interpreted run must
// be routed with its reason. -update rewrites the goldens with go run.
func TestModuleCorpus(t *testing.T) {
	dir, tc := project(t)
	progs, err := corpus.Load("../testdata/modcorpus")
	if err != nil || len(progs) < 35 {
		t.Fatalf("module corpus: %d programs, %v (want at least 35)", len(progs), err)
	}
	if *update {
		for i, p := range progs {
			progs[i].Want = goRunIn(t, dir, p)
			if err := os.WriteFile(filepath.Join(p.Dir, "stdout.golden"), []byte(progs[i].Want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var srcs []string
	var blocks []build.Block
	for _, p := range progs {
		srcs = append(srcs, p.Source)
		blocks = append(blocks, build.Block{File: p.Name + "/main.go", Source: corpus.Block(p.Source)})
	}
	ctx := context.Background()
	k, err := Build(ctx, Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}, Imports(srcs...))
	if err != nil {
		t.Fatal(err)
	}
	if len(k.Gaps) > 0 {
		t.Errorf("packages the tables could not carry: %v", k.Gaps)
	}
	w, err := build.Build(ctx, build.Options{Dir: filepath.Join(dir, ".strata", "build"), Tool: tc, Module: dir}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	interpPool := supervisor.NewPool(supervisor.Config{Command: k.Command()}, 2)
	defer interpPool.Close()
	pools := build.NewPools(supervisor.Config{}, 2)
	defer pools.Close()
	compiled, release := pools.Acquire(w)
	defer release()
	for _, p := range progs {
		t.Run(p.Name, func(t *testing.T) {
			req := &protocol.ExecRequest{Filename: p.Name + "/main.go", Source: corpus.Block(p.Source), Timeout: 30 * time.Second}
			res, _, err := interpPool.Exec(ctx, req, nil, discard{})
			if err != nil {
				t.Fatal(err)
			}
			if reason, ok := modNeedsCompiled[p.Name]; ok {
				if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported || !strings.Contains(res.Error.Message, interp.NeedsCompiledPrefix) ||
					!strings.Contains(res.Error.Message, reason) || res.Error.Line == 0 {
					t.Errorf("interpreted: want a needs-compiled refusal at a line naming %q, got %+v", reason, res.Error)
				}
			} else if res.Error != nil {
				t.Errorf("interpreted: %s (line %d); stdout so far:\n%s", res.Error.Message, res.Error.Line, res.Stdout)
			} else if res.Stdout != p.Want {
				t.Errorf("interpreted stdout differs from go run\n--- project kernel\n%s\n--- go run\n%s", res.Stdout, p.Want)
			}
			if rerr := w.Failed[req.Filename]; rerr != nil {
				t.Fatalf("compiled: %v", rerr)
			}
			cres, _, err := compiled.Exec(ctx, req, nil, discard{})
			if err != nil {
				t.Fatal(err)
			}
			if cres.Error != nil || cres.Stdout != p.Want {
				t.Errorf("compiled: %+v; stdout differs from go run\n--- compiled\n%s\n--- go run\n%s", cres.Error, cres.Stdout, p.Want)
			}
		})
	}
}

// goRunIn runs a program with `go run` inside the project dir, whose go.mod
// is the corpus'.
func goRunIn(t *testing.T, dir string, p corpus.Program) string {
	t.Helper()
	pkg := filepath.Join(dir, "gorun", p.Name)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(p.Source), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = pkg
	cmd.Env = append(modtest.Env(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run %s: %v", p.Name, err)
	}
	return string(out)
}
