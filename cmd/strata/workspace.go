package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	kbuild "github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers/launcher"
	"github.com/stratahq/strata/projects/warehouse"
)

// workspace is what every project command needs: the project, its
// warehouse, a kernel pool and the engine. Opening it takes the warehouse
// lock, so only one strata process works on a project at a time.
type workspace struct {
	proj     *project.Project
	wh       *warehouse.Warehouse
	pool     *supervisor.Pool
	compiler *kbuild.Compiler
	eng      *engine.Engine
	// cluster, with workers, is where the engine runs Go blocks; the local
	// pool then serves as one of its workers (unless --no-local).
	cluster *remote.Cluster
	// clock is the time triggers and the engine share (sped up only by a
	// test hook, see triggerClock).
	clock *launcher.RealClock
	// stopRecording ends the recording of upstream changes for event
	// triggers (launcher.RecordChanges): a command's publishes are fired
	// for by the next strata start. strata start stops it and runs its own
	// trigger loop instead.
	stopRecording func()
}

// StopRecording stops noting upstream changes for event triggers, after
// noting what is buffered; later calls do nothing.
func (w *workspace) StopRecording() {
	if w.stopRecording != nil {
		w.stopRecording()
		w.stopRecording = nil
	}
}

// WarehousePath is where a project's DuckDB file lives.
func warehousePath(dir string) string { return filepath.Join(dir, ".strata", "warehouse.duckdb") }

func openWorkspace(ctx context.Context, dir string) (*workspace, error) {
	return openScaledWorkspace(ctx, dir, nil)
}

// openScaledWorkspace opens a workspace whose Go blocks run on workers
// when so enables them.
func openScaledWorkspace(ctx context.Context, dir string, so *scaleOut) (*workspace, error) {
	proj, err := loadProjectQuiet(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, ".strata"), 0o755); err != nil {
		return nil, err
	}
	whOpts, err := warehouseOptions(proj, false)
	if err != nil {
		return nil, err
	}
	wh, err := warehouse.Open(ctx, warehousePath(dir), whOpts)
	if err != nil {
		return nil, err
	}
	size := max(2, runtime.NumCPU())
	pool := supervisor.NewPool(kernelConfig(proj), size)
	// Compiled workers get the same limits; their command is each build.
	compiler := kbuild.NewCompiler(dir, kernelConfig(proj), size)
	clock := triggerClock()
	var exec engine.Executor = pool
	var cluster *remote.Cluster
	if so != nil && so.enabled() {
		if cluster, err = so.start(ctx, dir, pool, compiler); err != nil {
			compiler.Close()
			pool.Close()
			wh.Close()
			return nil, err
		}
		exec = cluster.Pool
	}
	opts := engine.Options{Compiler: compiler, Now: clock.Now}
	if cluster == nil {
		opts.ProjectKernel = projectKernelPools(proj, size)
	} else {
		// Workers get a project kernel the way they get a compiled
		// worker: built here, fetched by its content hash.
		opts.ProjectKernel = projectKernelShipped(proj, func(ctx context.Context, hash, path string) (engine.Executor, error) {
			return cluster.Pool.Compiled(ctx, hash, path)
		})
	}
	if cluster != nil {
		// Compiled builds happen here, once per pipeline version, and the
		// workers fetch the binary by its content hash.
		opts.ShipBuild = func(ctx context.Context, w *kbuild.Worker) (engine.Executor, error) {
			return cluster.Pool.Compiled(ctx, w.Hash, w.Path)
		}
	}
	eng, err := engine.New(ctx, proj, wh, exec, opts)
	if err != nil {
		if cluster != nil {
			cluster.Close()
		}
		compiler.Close()
		pool.Close()
		wh.Close()
		return nil, err
	}
	warnProblems(dir, proj) // as the engine judges it: with the products' owners
	ws := &workspace{proj: proj, wh: wh, pool: pool, compiler: compiler, eng: eng, cluster: cluster, clock: clock}
	if ws.stopRecording, err = launcher.RecordChanges(ctx, launcher.Config{Engine: eng, Warehouse: wh, Clock: clock}); err != nil {
		// The command runs anyway; only its publishes go unnoticed by the
		// event triggers of the next strata start.
		fmt.Fprintf(os.Stderr, "strata: event triggers will not see this command's publishes: %v\n", err)
	}
	return ws, nil
}

// kernelConfig is how this binary starts kernels for a project. They run
// in the project folder, so a block's relative paths mean the same file
// whichever folder strata was started from (a run from the project folder
// found data/seed.csv, the same run from elsewhere did not).
func kernelConfig(proj *project.Project) supervisor.Config {
	return supervisor.Config{Command: kernelCommand(), MemoryLimit: proj.Kernel.MemoryLimit, Dir: proj.Dir}
}

// Close stops the engine and kernels and closes the warehouse; a warehouse
// that cannot close cleanly (connections still in use) is said on stderr.
func (w *workspace) Close() {
	w.eng.Close()
	w.StopRecording()
	if w.cluster != nil {
		w.cluster.Close() // hands the local agent's tasks back before its kernels stop
	}
	w.pool.Close()
	if w.compiler != nil {
		w.compiler.Close()
	}
	if err := w.wh.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "strata:", err)
	}
}

// loadProject loads a project; problems in some pipelines are printed as
// warnings, and only stop the commands that need those pipelines.
func loadProject(dir string) (*project.Project, error) {
	proj, err := loadProjectQuiet(dir)
	if proj != nil {
		warnProblems(dir, proj)
	}
	return proj, err
}

// loadProjectQuiet is loadProject for a command that opens the warehouse:
// which pipeline owns a product shared by two is the warehouse's record
// (the engine hands it to the project), so the problems are printed once
// it has, by warnProblems.
func loadProjectQuiet(dir string) (*project.Project, error) {
	proj, err := project.Load(dir)
	if proj == nil {
		return nil, err
	}
	return proj, nil
}

// warnProblems prints a loaded project's problems as warnings.
func warnProblems(dir string, proj *project.Project) {
	if len(proj.Problems) > 0 {
		fmt.Fprintf(os.Stderr, "strata: project %s has problems:\n%s\n", dir, proj.Problems.Error())
		for _, p := range proj.Problems {
			warned[p] = true
		}
	}
}

// warned holds the problems loadProject printed, so a command stopped by
// them does not print them a second time.
var warned = map[project.Problem]bool{}

// alreadyWarned reports whether err consists of problems printed above.
func alreadyWarned(err error) bool {
	var probs project.Problems
	if !errors.As(err, &probs) || len(probs) == 0 {
		return false
	}
	for _, p := range probs {
		if !warned[p] {
			return false
		}
	}
	return true
}

// withWorkspace opens a project's workspace for one command, with a context
// that Ctrl+C cancels, and closes it after.
func withWorkspace(dir string, fn func(ctx context.Context, ws *workspace) error) error {
	return withScaledWorkspace(dir, nil, fn)
}

// withScaledWorkspace is withWorkspace with workers when so enables them.
func withScaledWorkspace(dir string, so *scaleOut, fn func(ctx context.Context, ws *workspace) error) error {
	ctx, stop := signalContext()
	defer stop()
	ws, err := openScaledWorkspace(ctx, dir, so)
	if err != nil {
		return err
	}
	defer ws.Close()
	return fn(ctx, ws)
}

// openInspection opens a project for a command that only reads (products,
// preview, backfill list and status): the warehouse read-only, with no
// write lock, so a project the user cannot write can still be inspected.
// A project that has no warehouse yet is opened as usual (which creates it).
func openInspection(ctx context.Context, dir string) (*workspace, error) {
	if _, err := os.Stat(warehousePath(dir)); err != nil {
		return openWorkspace(ctx, dir)
	}
	proj, err := loadProjectQuiet(dir)
	if err != nil {
		return nil, err
	}
	whOpts, err := warehouseOptions(proj, true)
	if err != nil {
		return nil, err
	}
	wh, err := warehouse.Open(ctx, warehousePath(dir), whOpts)
	if err != nil {
		return nil, err
	}
	pool := supervisor.NewPool(kernelConfig(proj), 1) // runs nothing; the engine wants one
	eng, err := engine.New(ctx, proj, wh, pool, engine.Options{ReadOnly: true})
	if err != nil {
		pool.Close()
		wh.Close()
		return nil, err
	}
	warnProblems(dir, proj)
	return &workspace{proj: proj, wh: wh, pool: pool, eng: eng}, nil
}

// withInspection is withWorkspace for commands that only read.
func withInspection(dir string, fn func(ctx context.Context, ws *workspace) error) error {
	ctx, stop := signalContext()
	defer stop()
	ws, err := openInspection(ctx, dir)
	if err != nil {
		return err
	}
	defer ws.Close()
	return fn(ctx, ws)
}
