package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

// The test binary doubles as the kernel (kernel/kerneltest) and as a
// separate strata process that a test can kill -9 (STRATA_ENGINE_CHILD).
func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	if os.Getenv("STRATA_ENGINE_CHILD") != "" {
		os.Exit(engineChild())
	}
	os.Exit(m.Run())
}

func kernelConfig() supervisor.Config { return kerneltest.Config() }

// env is a project with its warehouse, pool and engine: the test DSL is
// newEnv(t, files) → env.run / env.backfill → assertions on env.wh.
type env struct {
	t    testing.TB
	dir  string
	wh   *warehouse.Warehouse
	pool *supervisor.Pool
	eng  *Engine
	// compiler is set by newCompiledEnv.
	compiler *build.Compiler
}

// newEnv writes files (path -> content) into a new project; with demo it
// starts from the demo project.
func newEnv(t testing.TB, demo bool, files map[string]string) *env {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := scaffold.Init(dir, demo); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	return openEnv(t, dir)
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openEnv(t testing.TB, dir string) *env {
	t.Helper()
	e, err := openEnvErr(dir)
	if err != nil {
		t.Fatal(err)
	}
	e.t = t
	t.Cleanup(e.close)
	return e
}

func openEnvErr(dir string) (*env, error) { return openEnvWith(dir, false) }

// newCompiledEnv is newEnv whose engine can build compiled workers (in the
// project's .strata/build), as `strata run` has with a Go toolchain.
func newCompiledEnv(t testing.TB, demo bool, files map[string]string) *env {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := scaffold.Init(dir, demo); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	e, err := openEnvWith(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	e.t = t
	t.Cleanup(e.close)
	return e
}

func openEnvWith(dir string, compiled bool) (*env, error) { return openEnvSized(dir, compiled, 2) }

// newEnvPool is newEnv with a kernel pool of size kernels.
func newEnvPool(t testing.TB, size int, files map[string]string) *env {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	if err := scaffold.Init(dir, false); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, files)
	e, err := openEnvSized(dir, false, size)
	if err != nil {
		t.Fatal(err)
	}
	e.t = t
	t.Cleanup(e.close)
	return e
}

func openEnvSized(dir string, compiled bool, size int) (*env, error) {
	proj, err := project.Load(dir)
	if proj == nil {
		return nil, err
	}
	wh, err := warehouse.Open(context.Background(), filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		return nil, err
	}
	pool := supervisor.NewPool(kernelConfig(), size)
	var opt Options
	if compiled {
		opt.Compiler = build.NewCompiler(dir, kernelConfig(), 2)
	}
	eng, err := New(context.Background(), proj, wh, pool, opt)
	if err != nil {
		return nil, err
	}
	return &env{dir: dir, wh: wh, pool: pool, eng: eng, compiler: opt.Compiler}, nil
}

func (e *env) close() {
	if e.eng == nil {
		return
	}
	e.eng.Shutdown(context.Background())
	e.eng.Close()
	e.pool.Close()
	if e.compiler != nil {
		e.compiler.Close()
	}
	if err := e.wh.Close(); err != nil && e.t != nil {
		// A connection still in use after a graceful shutdown is a leak:
		// say so here, with the goroutines that touch the database (one of
		// them holds it), rather than as a refused reopen later.
		e.t.Errorf("%v\n%s", err, databaseGoroutines())
	}
	e.eng = nil
}

// reload re-reads the project files after a test changed them.
func (e *env) reload() {
	e.t.Helper()
	proj, err := project.Load(e.dir)
	if proj == nil {
		e.t.Fatal(err)
	}
	e.eng.SetProject(proj)
}

func (e *env) run(pipeline, key string) *RunResult {
	e.t.Helper()
	res, err := e.eng.Run(context.Background(), pipeline, key, RunOptions{})
	if err != nil {
		e.t.Fatalf("run %s %s: %v", pipeline, key, err)
	}
	return res
}

func (e *env) mustSucceed(res *RunResult) {
	e.t.Helper()
	if res.State != StateSucceeded {
		e.t.Fatalf("run %s %s: %s: %s", res.Pipeline, res.Partition, res.State, res.Error)
	}
}

func (e *env) backfill(spec BackfillSpec) *BackfillStatus {
	e.t.Helper()
	st, err := e.eng.Launch(context.Background(), spec)
	if err != nil {
		e.t.Fatalf("launch: %v", err)
	}
	st, err = e.eng.Wait(context.Background(), st.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// count runs one SQL query returning a number.
func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.wh.DB().QueryRow(query, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// databaseGoroutines returns the stacks of the goroutines that are inside
// database/sql or DuckDB.
func databaseGoroutines() string {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "database/sql") || strings.Contains(g, "duckdb") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}
