package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
)

// execEngine runs one block for `strata exec` on the engine asked for:
// "interp" the interpreter; "compiled" a native worker built with the Go
// toolchain; empty (the default) the interpreter, for its instant start,
// unless the block uses what the interpreter cannot run ("needs compiled:
// …"), which then runs compiled when a toolchain is found, as an editor
// cell does. used is the engine that ran, with the reason when compiled was
// picked for the block ("compiled: range over a function …").
func execEngine(ctx context.Context, want, srcDir, module string, req *protocol.ExecRequest, tables []*sdk.Table, memLimit int64, h supervisor.Handler) (res *protocol.Result, out *sdk.Table, used string, err error) {
	if imports := requestImports(req); len(imports) > 0 {
		return execModules(ctx, want, srcDir, module, imports, req, tables, memLimit, h)
	}
	if want == engine.EngineCompiled {
		res, out, err := execCompiled(ctx, srcDir, module, req, tables, memLimit, h)
		return res, out, engine.EngineCompiled, err
	}
	reason := ""
	if want == "" {
		if diags := interp.NewExecutor().NeedsCompiled(req.Filename, req.Source, req.Allow, req.Files...); len(diags) > 0 {
			reason = diags[0].Message
		}
	}
	if reason == "" {
		k, err := supervisor.Start(ctx, supervisor.Config{Command: kernelCommand(), MemoryLimit: memLimit})
		if err != nil {
			return nil, nil, "", err
		}
		res, out = k.Exec(ctx, req, tables, h)
		k.Close()
		// Some refusals only show as the block loads (yaegi fails to
		// compile it); nothing ran yet then, so it can run compiled. A
		// fault once the block ran (Started) is never replayed: what ran
		// had its effects (a line appended to a file, twice).
		if want == "" && res.Error != nil && res.Error.Kind == protocol.ErrUnsupported && !res.Error.Started {
			reason = res.Error.Message
			if len(res.Error.Diagnostics) > 0 {
				reason = res.Error.Diagnostics[0].Message
			}
		} else {
			offerCompiled(res.Error)
			return res, out, engine.EngineInterp, nil
		}
		if _, terr := build.FindToolchain(); terr != nil {
			return res, out, engine.EngineInterp, nil
		}
	} else if _, terr := build.FindToolchain(); terr != nil {
		// No toolchain: the interpreter's refusal stands, and says why.
		k, err := supervisor.Start(ctx, supervisor.Config{Command: kernelCommand(), MemoryLimit: memLimit})
		if err != nil {
			return nil, nil, "", err
		}
		defer k.Close()
		res, out = k.Exec(ctx, req, tables, h)
		return res, out, engine.EngineInterp + " (no Go toolchain for compiled: " + terr.Error() + ")", nil
	}
	res, out, err = execCompiled(ctx, srcDir, module, req, tables, memLimit, h)
	return res, out, engine.EngineCompiled + ": " + shortReason(reason), err
}

// offerCompiled words an interpreted failure that compiled may not have (a
// fault of the interpreter midway, a timeout) with how to run it compiled,
// when a toolchain is there to.
func offerCompiled(e *protocol.RunError) {
	if e == nil || !(e.Kind == protocol.ErrUnsupported && e.Started) && e.Kind != protocol.ErrTimeout {
		return
	}
	if _, err := build.FindToolchain(); err != nil {
		return
	}
	if e.Kind == protocol.ErrTimeout {
		e.Message += "; the interpreter runs CPU-bound Go many times slower than compiled Go: run it with --engine compiled"
	} else {
		e.Message += "; it was not run again by itself, as what ran before the fault had its effects: run it with --engine compiled"
	}
}

// execCompiled builds the block into a native worker (cached by content
// in the user's cache folder, so an unchanged block starts no build) and
// runs it there.
func execCompiled(ctx context.Context, srcDir, module string, req *protocol.ExecRequest, tables []*sdk.Table, memLimit int64, h supervisor.Handler) (*protocol.Result, *sdk.Table, error) {
	tool, err := build.FindToolchain()
	if err != nil {
		return nil, nil, fmt.Errorf("--engine compiled: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	others := map[string]string{}
	for _, f := range req.Files {
		others[f.Name] = f.Source
	}
	w, err := build.Build(ctx, build.Options{Dir: filepath.Join(cache, "strata", "exec-build"), Allow: req.Allow, Tool: tool, Root: srcDir, Module: module},
		[]build.Block{{File: req.Filename, Source: req.Source, Others: others}})
	if err != nil {
		return nil, nil, fmt.Errorf("build compiled worker: %w", err)
	}
	if rerr := w.Failed[req.Filename]; rerr != nil {
		return &protocol.Result{Error: rerr}, nil, nil
	}
	k, err := supervisor.Start(ctx, supervisor.Config{Command: []string{w.Path}, MemoryLimit: memLimit})
	if err != nil {
		return nil, nil, err
	}
	defer k.Close()
	res, out := k.Exec(ctx, req, tables, h)
	return res, out, nil
}

// shortReason is what the interpreter could not run, without the
// explanation: "needs compiled: range over a function (an iterator, Go
// 1.23): the kernel's interpreter …" gives "range over a function (an
// iterator, Go 1.23)".
func shortReason(msg string) string {
	msg = strings.TrimPrefix(msg, interp.NeedsCompiledPrefix)
	for _, cut := range []string{": the kernel's interpreter", " is not in the kernel's interpreter", ": yaegi"} {
		if i := strings.Index(msg, cut); i > 0 {
			msg = msg[:i]
		}
	}
	if len(msg) > 80 {
		msg = msg[:77] + "…"
	}
	return msg
}
