package build

import (
	"context"
	"path/filepath"

	"github.com/stratahq/strata/kernel/supervisor"
)

// Compiler builds a project's blocks and hands out executors on the built
// workers. One per project: its folder is the project's build folder.
type Compiler struct {
	Dir   string // e.g. <project>/.strata/build
	Root  string // the project folder: block files are relative to it
	Pools *Pools
	// Module is the project folder, whose go.mod and go.sum the blocks'
	// module imports resolve through ("" for none).
	Module string
}

// NewCompiler returns a compiler for the project in projectDir whose pools
// start kernels with cfg (memory limit, grace) and hold size kernels each.
func NewCompiler(projectDir string, cfg supervisor.Config, size int) *Compiler {
	return &Compiler{Dir: filepath.Join(projectDir, ".strata", "build"), Root: projectDir, Pools: NewPools(cfg, size), Module: projectDir}
}

// Available reports whether a Go toolchain is installed (else blocks run
// interpreted), and why not.
func (c *Compiler) Available() error {
	_, err := FindToolchain()
	return err
}

// Executor builds blocks (or finds them built) and returns an executor on
// the worker; release it when the run or backfill ends.
func (c *Compiler) Executor(ctx context.Context, blocks []Block, allow []string) (*Executor, func(), error) {
	w, err := Build(ctx, Options{Dir: c.Dir, Allow: allow, Root: c.Root, Module: c.Module}, blocks)
	if err != nil {
		return nil, nil, err
	}
	ex, release := c.Pools.Acquire(w)
	return ex, release, nil
}

// Build builds blocks (or finds them built) without starting kernels: for
// a coordinator that ships the binary to worker machines.
func (c *Compiler) Build(ctx context.Context, blocks []Block, allow []string) (*Worker, error) {
	return Build(ctx, Options{Dir: c.Dir, Allow: allow, Root: c.Root, Module: c.Module}, blocks)
}

// ForModule is the compiler building against the go.mod and go.sum in dir
// (a pipeline version's snapshot folder) instead: same folder and pools.
func (c *Compiler) ForModule(dir string) *Compiler {
	cp := *c
	cp.Module = dir
	return &cp
}

// Close stops the workers.
func (c *Compiler) Close() { c.Pools.Close() }
