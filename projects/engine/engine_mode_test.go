package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
)

func needToolchain(t *testing.T) {
	t.Helper()
	if _, err := build.FindToolchain(); err != nil {
		t.Skip(err)
	}
}

// A backfill builds one worker before it starts and every partition runs on
// it; the runs and the backfill say so.
func TestCompiledBackfillBuildsOnce(t *testing.T) {
	needToolchain(t)
	e := newCompiledEnv(t, true, nil)
	st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "clv", From: "2024-03-01", To: "2024-03-04"})
	if err != nil {
		t.Fatal(err)
	}
	st, _ = e.eng.Wait(context.Background(), st.ID)
	if st.State != StateSucceeded || st.Progress.Engine != EngineCompiled {
		t.Fatalf("backfill %s engine %q: %s", st.State, st.Progress.Engine, st.Message)
	}
	runs, err := e.eng.Runs(context.Background(), RunFilter{BackfillID: st.ID})
	if err != nil || len(runs) < 4 {
		t.Fatalf("runs: %v %d", err, len(runs))
	}
	for _, r := range runs {
		if r.Engine != EngineCompiled {
			t.Errorf("run %s engine %q", r.RunID, r.Engine)
		}
	}
	bins, _ := filepath.Glob(filepath.Join(e.dir, ".strata", "build", "bin", "worker-*"))
	if len(bins) != 1 {
		t.Errorf("want one worker built, have %v", bins)
	}
}

// A Go block that does not compile fails alone, at its own line, while the
// rest of the pipeline's blocks run compiled as usual.
func TestCompiledBlockCompileErrorFailsOnlyIt(t *testing.T) {
	needToolchain(t)
	e := newCompiledEnv(t, true, nil)
	p := filepath.Join(e.dir, "blocks", "segments", "segments.go")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(src), "counts[s]++", "counts[s] += \"one\"", 1)
	if err := os.WriteFile(p, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	e.reload()
	res := e.run("clv", "2024-03-10")
	if res.Engine != EngineCompiled {
		t.Fatalf("engine %q (%s)", res.Engine, res.EngineNote)
	}
	states := map[string]*BlockOutcome{}
	for _, b := range res.Blocks {
		states[b.Block] = b
	}
	if states["clv"].State != StateSucceeded {
		t.Errorf("clv: %s %s", states["clv"].State, states["clv"].Error)
	}
	seg := states["segments"]
	if seg.State != StateFailed || seg.ErrorKind != "compile" || seg.ErrorLine != 14 || !strings.Contains(seg.Error, "mismatched types") {
		t.Errorf("segments: %s %s line %d: %s", seg.State, seg.ErrorKind, seg.ErrorLine, seg.Error)
	}
}

// A forced --engine compiled in a process without a compiler says why (with
// workers attached it used to blame a missing build folder).
func TestForcedCompiledSaysWhyUnavailable(t *testing.T) {
	e := newEnv(t, true, nil)
	e.eng.noCompiled = "Go blocks run on workers"
	_, err := e.eng.Run(context.Background(), "clv", "2024-03-10", RunOptions{Engine: EngineCompiled})
	if err == nil || !strings.Contains(err.Error(), "--engine compiled is not available in this process: Go blocks run on workers") {
		t.Fatalf("want the reason, got %v", err)
	}
}
