package engine

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/projects/project"
)

// Engines a run's Go blocks can run on.
const (
	EngineInterp   = "interp"   // the yaegi interpreter: instant start, slow loops
	EngineCompiled = "compiled" // a native worker built with the Go toolchain
)

// A compiled worker pool is an Executor like the interpreter's.
var _ Executor = (*build.Executor)(nil)

// preparedCode is the executor a run (or every run of a backfill) uses for
// one pipeline version.
type preparedCode struct {
	hash    string // the pipeline version (snapshot) it runs
	exec    Executor
	engine  string
	note    string // why the default compiled mode was not used, when it was not
	release func()
	built   *build.Worker // compiled only
}

// ParseEngine checks an --engine value; empty means automatic.
func ParseEngine(s string) (string, error) {
	switch s {
	case "", EngineInterp, EngineCompiled:
		return s, nil
	}
	return "", fmt.Errorf("engine %q: want %s or %s (or nothing: compiled when a Go toolchain is found)", s, EngineInterp, EngineCompiled)
}

// prepare picks the executor of a pipeline version: compiled when asked,
// or by default when a Go toolchain is found; interpreted otherwise.
// Compiled means one build of exactly the version's sources, before
// anything runs.
func (e *Engine) prepare(ctx context.Context, pin *pinned, want string) (*preparedCode, error) {
	code, err := e.prepareExec(ctx, pin, want)
	if err != nil || code.engine != EngineInterp || e.projectKernel == nil {
		return code, err
	}
	// Interpreted blocks that import modules run in the project kernel of
	// the pipeline's imports (the plain kernel would refuse them).
	var srcs []string
	for _, b := range pin.pl.Blocks {
		if b.Kind == project.KindGo {
			srcs = append(srcs, pin.srcs[b.ID].text)
			for _, f := range pin.srcs[b.ID].others {
				srcs = append(srcs, f.Source)
			}
		}
	}
	if imports := moduleImports(srcs); len(imports) > 0 {
		module := e.project().Dir
		if _, err := os.Stat(filepath.Join(pin.proj.Dir, "go.mod")); err == nil {
			module = pin.proj.Dir // the versions the pipeline version pinned
		}
		ex, release, err := e.projectKernel(ctx, module, imports)
		if err != nil {
			code.release()
			return nil, fmt.Errorf("build the project kernel for %s: %w", strings.Join(imports, ", "), err)
		}
		prev := code.release
		code.exec, code.release = ex, func() { release(); prev() }
	}
	return code, nil
}

// prepareExec is prepare without the project kernel.
func (e *Engine) prepareExec(ctx context.Context, pin *pinned, want string) (*preparedCode, error) {
	if _, err := ParseEngine(want); err != nil {
		return nil, err
	}
	pl, srcs := pin.pl, pin.srcs
	code := &preparedCode{hash: pin.hash, exec: e.pool, engine: EngineInterp, release: func() {}}
	if want == EngineInterp {
		return code, nil
	}
	if e.compiler == nil {
		if want == EngineCompiled {
			why := e.noCompiled
			if why == "" {
				why = "it has no build folder"
			}
			return nil, fmt.Errorf("--engine compiled is not available in this process: %s", why)
		}
		return code, nil
	}
	if err := e.compiler.Available(); err != nil {
		if want == EngineCompiled {
			return nil, err
		}
		return code, nil // no toolchain: everything still runs, interpreted
	}
	// The modules the pipeline version pinned (its snapshot holds go.mod
	// and go.sum), not the ones on disk now: a backfill resumed after a
	// `go get` builds what it started with.
	compiler := e.compiler
	if _, err := os.Stat(filepath.Join(pin.proj.Dir, "go.mod")); err == nil {
		compiler = compiler.ForModule(pin.proj.Dir)
	}
	var blocks []build.Block
	for _, b := range pl.Blocks {
		if b.Kind == project.KindGo {
			others := map[string]string{}
			for _, f := range srcs[b.ID].others {
				others[f.Name] = f.Source
			}
			blocks = append(blocks, build.Block{File: b.File, Source: srcs[b.ID].text, Others: others, Entry: b.Entry})
		}
	}
	if e.shipBuild != nil {
		return e.prepareShipped(ctx, compiler, code, blocks, pin.proj.Kernel.Allow, want)
	}
	ex, release, err := compiler.Executor(ctx, blocks, pin.proj.Kernel.Allow)
	if err != nil {
		if want == EngineCompiled {
			return nil, fmt.Errorf("build compiled worker: %w", err)
		}
		code.note = "compiled build failed, ran interpreted: " + err.Error()
		return code, nil
	}
	code.exec, code.engine, code.release, code.built = ex, EngineCompiled, release, ex.Worker
	return code, nil
}

// prepareShipped builds here and hands the binary to the executor that
// runs blocks elsewhere (workers fetch it by its content hash).
func (e *Engine) prepareShipped(ctx context.Context, compiler *build.Compiler, code *preparedCode, blocks []build.Block, allow []string, want string) (*preparedCode, error) {
	w, err := compiler.Build(ctx, blocks, allow)
	var ex Executor
	if err == nil {
		ex, err = e.shipBuild(ctx, w)
	}
	if err != nil {
		if want == EngineCompiled {
			return nil, fmt.Errorf("build compiled worker: %w", err)
		}
		code.note = "compiled build failed, ran interpreted: " + err.Error()
		return code, nil
	}
	code.exec, code.engine, code.built = &compileErrorsFirst{w: w, exec: ex}, EngineCompiled, w
	return code, nil
}

// compileErrorsFirst answers a block that did not compile with its compile
// error, as the local compiled executor does, without shipping it.
type compileErrorsFirst struct {
	w    *build.Worker
	exec Executor
}

func (c *compileErrorsFirst) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h supervisor.Handler) (*protocol.Result, *sdk.Table, error) {
	if rerr := c.w.Failed[req.Filename]; rerr != nil {
		cp := *rerr
		return &protocol.Result{Error: &cp}, nil, nil
	}
	return c.exec.Exec(ctx, req, inputs, h)
}

// ReadsLake is the shipping executor's (lakeOnWorker).
func (c *compileErrorsFirst) ReadsLake() bool { return readsLake(c.exec) }

func (c *compileErrorsFirst) Size() int { return c.exec.Size() }

// moduleImports lists, sorted, the third-party packages Go sources import.
func moduleImports(srcs []string) []string {
	seen := map[string]bool{}
	for _, src := range srcs {
		f, _ := parser.ParseFile(token.NewFileSet(), "block.go", src, parser.ImportsOnly)
		if f == nil {
			continue
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			if err == nil && strings.Contains(first, ".") && !strings.HasPrefix(p+"/", "github.com/stratahq/strata/") {
				seen[p] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
