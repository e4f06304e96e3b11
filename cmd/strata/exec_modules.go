package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/projectkernel"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/remote"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// requestImports are the third-party packages a block's files import.
func requestImports(req *protocol.ExecRequest) []string {
	srcs := []string{req.Source}
	for _, f := range req.Files {
		srcs = append(srcs, f.Source)
	}
	return projectkernel.Imports(srcs...)
}

// moduleRoot is the folder of the go.mod nearest above file ("" for none):
// the project whose requirements a block's module imports resolve through.
func moduleRoot(file string) string {
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// execModules runs a block that imports modules: compiled against the
// project's go.mod by default (one block, one run: a worker builds in
// seconds where a first project kernel takes a minute), in the project
// kernel with --engine interp. Without a toolchain it is refused with what
// to install.
func execModules(ctx context.Context, want, srcDir, module string, imports []string, req *protocol.ExecRequest, tables []*sdk.Table, memLimit int64, h supervisor.Handler) (*protocol.Result, *sdk.Table, string, error) {
	tool, err := build.FindToolchain()
	if err != nil {
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrRefused, File: req.Filename, Message: fmt.Sprintf(
			"the block imports %s, a module: blocks importing modules need the Go toolchain to build them: %v", strings.Join(imports, ", "), err)}}, nil, engine.EngineInterp, nil
	}
	if want != engine.EngineInterp {
		res, out, err := execCompiled(ctx, srcDir, module, req, tables, memLimit, h)
		used := engine.EngineCompiled
		if want == "" {
			used += ": imports modules"
		}
		return res, out, used, err
	}
	dir := filepath.Join(module, ".strata", "kernel")
	if _, err := os.Stat(filepath.Join(module, "strata.yaml")); module == "" || err != nil {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "strata", "exec-kernel")
	}
	fmt.Fprintf(os.Stderr, "building the project kernel: %s …\n", strings.Join(imports, ", "))
	progress := func(step string) { fmt.Fprintf(os.Stderr, "project kernel: %s\n", step) }
	k, err := projectkernel.Build(ctx, projectkernel.Options{Dir: dir, Project: module, Tool: tool, Progress: progress}, imports)
	if err != nil {
		var ie *projectkernel.ImportError
		if errors.As(err, &ie) {
			return &protocol.Result{Error: ie.RunError(req.Filename, req.Source)}, nil, engine.EngineInterp, nil
		}
		return nil, nil, "", fmt.Errorf("build the project kernel: %w", err)
	}
	sk, err := supervisor.Start(ctx, supervisor.Config{Command: k.Command(), MemoryLimit: memLimit})
	if err != nil {
		return nil, nil, "", err
	}
	defer sk.Close()
	res, out := sk.Exec(ctx, req, tables, h)
	if res.Error != nil && res.Error.Kind == protocol.ErrUnsupported && res.Stdout == "" {
		// A generic function of a module, say: nothing ran yet.
		reason := res.Error.Message
		if len(res.Error.Diagnostics) > 0 {
			reason = res.Error.Diagnostics[0].Message
		}
		res, out, err := execCompiled(ctx, srcDir, module, req, tables, memLimit, h)
		return res, out, engine.EngineCompiled + ": " + shortReason(reason), err
	}
	return res, out, engine.EngineInterp + " (project kernel)", nil
}

// projectKernelShipped gives interpreted runs of proj, when their blocks
// run on workers, the project kernel built here and shipped as a compiled
// worker binary is (ship).
func projectKernelShipped(proj *project.Project, ship func(ctx context.Context, hash, path string) (engine.Executor, error)) func(ctx context.Context, module string, imports []string) (engine.Executor, func(), error) {
	return func(ctx context.Context, module string, imports []string) (engine.Executor, func(), error) {
		k, err := buildProjectKernel(ctx, proj, module, imports)
		if err != nil {
			return nil, nil, err
		}
		ex, err := ship(ctx, remote.ProjectKernelPrefix+k.Hash[:40], k.Path)
		if err != nil {
			return nil, nil, err
		}
		return ex, func() {}, nil
	}
}

func buildProjectKernel(ctx context.Context, proj *project.Project, module string, imports []string) (*projectkernel.Kernel, error) {
	tool, err := build.FindToolchain()
	if err != nil {
		return nil, fmt.Errorf("blocks importing modules run in a project kernel built with the Go toolchain: %w", err)
	}
	return projectkernel.Build(ctx, projectkernel.Options{Dir: filepath.Join(proj.Dir, ".strata", "kernel"), Project: module, Tool: tool}, imports)
}

// projectKernelPools gives interpreted runs of proj a pool of project
// kernels carrying the packages their blocks import, built (or found
// built) under the project's .strata/kernel.
func projectKernelPools(proj *project.Project, size int) func(ctx context.Context, module string, imports []string) (engine.Executor, func(), error) {
	return func(ctx context.Context, module string, imports []string) (engine.Executor, func(), error) {
		k, err := buildProjectKernel(ctx, proj, module, imports)
		if err != nil {
			return nil, nil, err
		}
		cfg := kernelConfig(proj)
		cfg.Command = k.Command()
		pool := supervisor.NewPool(cfg, size)
		return pool, pool.Close, nil
	}
}
