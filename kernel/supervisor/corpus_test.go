package supervisor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/protocol"
)

// TestCorpus runs every program of kernel/testdata/corpus as a block through
// a real kernel process: its stdout must be exactly what `go run` printed
// (stdout.golden), or, for the programs corpus.NeedsCompiled lists, the run
// must be refused as "needs compiled" with the listed reason, at a line of
// the block (never after the fact at no line). -update
// regenerates stdout.golden with `go run` (needs the Go toolchain).
func TestCorpus(t *testing.T) {
	progs, err := corpus.Load("../testdata/corpus")
	if err != nil || len(progs) < 60 {
		t.Fatalf("corpus: %d programs, %v (want at least 60)", len(progs), err)
	}
	seen := map[string]bool{}
	pool := NewPool(testConfig(), 2)
	t.Cleanup(pool.Close)
	for _, p := range progs {
		p := p
		seen[p.Name] = true
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			if *update {
				p.Want = goRun(t, p)
				if err := os.WriteFile(filepath.Join(p.Dir, "stdout.golden"), []byte(p.Want), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			req := &protocol.ExecRequest{Filename: "main.go", Source: corpus.Block(p.Source), Timeout: 10 * time.Second}
			h := &collect{}
			res, _, err := pool.Exec(context.Background(), req, nil, h)
			if err != nil {
				t.Fatal(err)
			}
			if reason, ok := corpus.NeedsCompiled[p.Name]; ok {
				named := res.Error != nil && strings.Contains(res.Error.Message, reason)
				for _, d := range diagnostics(res.Error) { // the reason may be one of several
					named = named || strings.Contains(d.Message, reason)
				}
				if res.Error == nil || res.Error.Kind != protocol.ErrUnsupported || !strings.Contains(res.Error.Message, interp.NeedsCompiledPrefix) || !named {
					t.Fatalf("want a %q refusal naming %q, got %+v (stdout %q)", protocol.ErrUnsupported, reason, res.Error, res.Stdout)
				}
				if res.Error.Line == 0 {
					t.Errorf("the refusal names no line of the block: %+v", res.Error)
				}
				return
			}
			if code, ok := corpus.ExitCodes[p.Name]; ok {
				if res.Error == nil || res.Error.Kind != protocol.ErrPanic || res.Error.Line == 0 || !strings.Contains(res.Error.Message, "os.Exit("+strconv.Itoa(code)+")") {
					t.Errorf("want os.Exit(%d) reported at its line, got %+v", code, res.Error)
				}
			} else if res.Error != nil {
				t.Fatalf("run failed: %s (line %d) stdout so far:\n%s", res.Error.Message, res.Error.Line, res.Stdout)
			}
			if res.Stdout != p.Want {
				t.Errorf("stdout differs from go run\n--- kernel\n%s\n--- go run\n%s", res.Stdout, p.Want)
			}
		})
	}
	for name := range corpus.NeedsCompiled {
		if !seen[name] {
			t.Errorf("corpus.NeedsCompiled lists %s, which is not in the corpus", name)
		}
	}
}

// goRun is `go run main.go` in the program's folder with an empty stdin.
func goRun(t *testing.T, p corpus.Program) string {
	t.Helper()
	cmd := exec.Command("go", "run", "main.go")
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && corpus.ExitCodes[p.Name] != 0 && strings.Contains(stderr.String(), "exit status "+strconv.Itoa(corpus.ExitCodes[p.Name])):
		// go run exits 1 and reports the program's own status on stderr.
	default:
		t.Fatalf("go run %s: %v\n%s", p.Name, err, stderr.String())
	}
	return out.String()
}

func diagnostics(e *protocol.RunError) []protocol.Diagnostic {
	if e == nil {
		return nil
	}
	return e.Diagnostics
}
