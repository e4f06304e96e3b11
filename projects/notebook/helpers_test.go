package notebook

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

// The test binary doubles as the kernel, so sessions start real kernel
// processes.
func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	os.Exit(m.Run())
}

// newTestManager is a manager over a fresh demo project with a real DuckDB
// file; the engine runs published pipelines on a pool of real kernels.
func newTestManager(t *testing.T) (*Manager, *engine.Engine) {
	t.Helper()
	return newTestManagerWith(t, false)
}

// newTestManagerWith is newTestManager whose engine can build compiled
// workers, as `strata start` has with a Go toolchain.
func newTestManagerWith(t *testing.T, compiled bool, tune ...func(dir string)) (*Manager, *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := scaffold.Init(dir, true); err != nil {
		t.Fatal(err)
	}
	for _, f := range tune {
		f(dir) // before the project loads: its strata.yaml, its pipelines
	}
	proj, err := project.Load(dir)
	if proj == nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".strata"), 0o755); err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		t.Fatal(err)
	}
	pool := supervisor.NewPool(kerneltest.Config(), 1)
	var opt engine.Options
	if compiled {
		opt.Compiler = build.NewCompiler(dir, kerneltest.Config(), 1)
		t.Cleanup(opt.Compiler.Close)
	}
	eng, err := engine.New(ctx, proj, wh, pool, opt)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewManager(Config{Engine: eng, Kernel: kerneltest.Config()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.Close()
		eng.Close()
		pool.Close()
		wh.Close()
	})
	return m, eng
}

// recorder is a Client that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
	wake   chan struct{}
}

func newRecorder() *recorder { return &recorder{wake: make(chan struct{}, 1)} }

func (r *recorder) Send(ev Event) bool {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return true
}

func (r *recorder) TrySend(ev Event) bool { return r.Send(ev) }

// final waits for the result or error of execution id.
// finalWait bounds a wait for an execution's end: long enough for a
// project kernel's first build on a loaded machine.
const finalWait = 5 * time.Minute

func (r *recorder) final(t *testing.T, id string) Event {
	t.Helper()
	deadline := time.After(finalWait)
	for {
		r.mu.Lock()
		for _, ev := range r.events {
			if ev.ID == id && (ev.Kind == EventResult || ev.Kind == EventError) {
				r.mu.Unlock()
				return ev
			}
		}
		r.mu.Unlock()
		select {
		case <-r.wake:
		case <-deadline:
			t.Fatalf("no result for %s", id)
		}
	}
}

// run executes a cell and waits for its end, plus the idle status after it.
func run(t *testing.T, s *Session, rec *recorder, x Exec) Event {
	t.Helper()
	s.Execute(x)
	ev := rec.final(t, x.ID)
	for i := 0; i < 500; i++ {
		s.mu.Lock()
		idle := s.exec == nil
		s.mu.Unlock()
		if idle {
			return ev
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("session still busy after %s", x.ID)
	return ev
}

func readBlock(t *testing.T, eng *engine.Engine, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(eng.Project().Dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
