package native

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// Executor runs compiled blocks. It implements protocol.Executor.
type Executor struct {
	blocks map[string]*Block // by File
	out    *outputCapture    // stdout
	errOut *outputCapture    // stderr
	// verified is the package last seen to match each block's Hash: runs
	// are one at a time, and comparing the text is cheaper than hashing it.
	verified map[string]verifiedSource
}

// NewExecutor returns an executor for blocks; two blocks with one file name
// are an error (the coordinator could not tell them apart).
func NewExecutor(blocks []Block) (*Executor, error) {
	e := &Executor{blocks: map[string]*Block{}, verified: map[string]verifiedSource{}}
	for i := range blocks {
		b := &blocks[i]
		if e.blocks[b.File] != nil {
			return nil, fmt.Errorf("two blocks named %s", b.File)
		}
		e.blocks[b.File] = b
	}
	current = e
	return e, nil
}

// ExecutorName is how a compiled worker names itself in its ready message.
const ExecutorName = "native"

// Name identifies the executor in the kernel's ready message.
func (e *Executor) Name() string { return ExecutorName }

// SourceHash is how a block's package is fingerprinted for Block.Hash: its
// entry file and every other file, by name (in any order).
func SourceHash(src string, files ...protocol.SourceFile) string {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b protocol.SourceFile) int { return strings.Compare(a.Name, b.Name) })
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s", len(src), src)
	for _, f := range files {
		fmt.Fprintf(h, "\x00%d\x00%s\x00%d\x00%s", len(f.Name), f.Name, len(f.Source), f.Source)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// verifiedSource is a block's package as a run sent it, once its hash
// matched: the next run of the same text needs no hash.
type verifiedSource struct {
	src   string
	files []protocol.SourceFile
}

func (v verifiedSource) matches(req *protocol.ExecRequest) bool {
	return v.src == req.Source && slices.Equal(v.files, req.Files)
}

// Exec runs one block. Like the interpreter, a run that ends while the
// block's goroutines still run asks the supervisor for a fresh kernel.
func (e *Executor) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, env *protocol.Env) (*sdk.Table, *protocol.Result) {
	start := time.Now()
	res := &protocol.Result{}
	finish := func(t *sdk.Table, rerr *protocol.RunError) (*sdk.Table, *protocol.Result) {
		res.Error = rerr
		res.Duration = time.Since(start)
		return t, res
	}
	b := e.blocks[req.Filename]
	if b == nil {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrCompile, File: req.Filename,
			Message: fmt.Sprintf("this compiled worker has no block %s (it has %s): rebuild it", req.Filename, strings.Join(e.names(), ", "))})
	}
	// Every file counts: a helper file edited since the build would
	// otherwise run as the binary holds it, under the new code's name.
	if !e.verified[b.File].matches(req) && SourceHash(req.Source, req.Files...) != b.Hash {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrCompile, File: req.Filename,
			Message: "this compiled worker was built from another version of " + req.Filename + ": rebuild it"})
	}
	if req.Entry != "" && req.Entry != b.Entry {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrCompile, File: req.Filename,
			Message: fmt.Sprintf("block has no %s function (it declares %s)", req.Entry, b.Entry)})
	}
	if rerr := refused(b, req); rerr != nil {
		return finish(nil, rerr)
	}
	e.verified[b.File] = verifiedSource{req.Source, slices.Clone(req.Files)}
	res.Entry = b.Entry
	if req.CheckOnly {
		return finish(nil, nil)
	}
	if len(inputs) != b.Tables {
		names := ""
		if len(req.Inputs) > 0 {
			names = " (" + strings.Join(req.Inputs, ", ") + ")"
		}
		return finish(nil, &protocol.RunError{Kind: protocol.ErrCompile, File: req.Filename,
			Message: fmt.Sprintf("%s takes %d table(s) but the run has %d input(s)%s", b.Entry, b.Tables, len(inputs), names)})
	}
	bctx, err := newBlockContext(ctx, req, env)
	if err != nil {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrRuntime, Message: err.Error()})
	}
	// Each run sees a fresh command line and standard logger, as `go run`
	// gives a program: no arguments, no flags defined by an earlier run, and
	// no log prefix or flags an earlier block set (they leaked into the next
	// run on the same worker: "std: fatal: stop").
	flag.CommandLine = flag.NewFlagSet(os.Args[0], flag.ExitOnError)
	log.SetPrefix("")
	log.SetFlags(log.LstdFlags)
	release := e.captureOutput(env.Stdout, env.Stderr)
	log.SetOutput(os.Stderr) // the capture's, set just above
	defer release()
	type outcome struct {
		table    *sdk.Table
		err      error
		checkErr error
		panicked any
		file     string // where it panicked: the entry file or a helper beside it
		line     int
	}
	done := make(chan outcome, 1)
	before := runtime.NumGoroutine()
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o.panicked = r
				o.file, o.line = panicSite(req.Filename, req.Files)
			}
			done <- o
		}()
		if b.Reset != nil {
			b.Reset() // inside the recover: a panic there is the block's
		}
		o.table, o.err = b.Run(bctx, inputs)
		if o.err == nil && b.Check != nil && o.table != nil {
			o.checkErr = b.Check(bctx, o.table)
		}
	}()

	select {
	case o := <-done:
		e.flushOutput()
		// Goroutines the block started and left running would outlive the
		// run: give the next run a clean kernel.
		for i := 0; i < 100 && runtime.NumGoroutine() > before; i++ {
			time.Sleep(time.Millisecond)
		}
		res.Restart = runtime.NumGoroutine() > before || b.Fresh
		switch {
		case o.panicked != nil:
			return finish(nil, &protocol.RunError{Kind: protocol.ErrPanic, File: o.file, Line: o.line, Message: "panic: " + fmt.Sprint(o.panicked)})
		case o.err != nil && ctx.Err() != nil && errors.Is(o.err, ctx.Err()):
			// The block honoured the interrupt or deadline before the
			// select saw it: stopped, not failed.
			if req.Timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return finish(nil, &protocol.RunError{Kind: protocol.ErrTimeout, File: req.Filename, Message: "timed out after " + req.Timeout.String()})
			}
			return finish(nil, &protocol.RunError{Kind: protocol.ErrInterrupted, File: req.Filename, Message: "interrupted"})
		case o.err != nil:
			return finish(nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: req.Filename, Message: fmt.Sprintf("%s returned an error: %v", b.Entry, o.err)})
		case o.checkErr != nil:
			return finish(o.table, &protocol.RunError{Kind: protocol.ErrCheck, File: req.Filename, Message: "Check failed: " + o.checkErr.Error()})
		case b.Entry != "Export" && o.table == nil:
			return finish(nil, &protocol.RunError{Kind: protocol.ErrOutput, File: req.Filename, Message: b.Entry + " returned a nil table and no error"})
		case o.table != nil:
			if verr := o.table.Validate(); verr != nil {
				return finish(nil, &protocol.RunError{Kind: protocol.ErrOutput, File: req.Filename, Message: "output table: " + verr.Error()})
			}
		}
		return finish(o.table, nil)
	case <-ctx.Done():
		// A block that honours ctx.Done stops by itself; then the kernel
		// stays clean and needs no restart.
		select {
		case <-done:
		case <-time.After(400 * time.Millisecond): // within the supervisor's 500ms grace
			res.Restart = true
		}
		e.flushOutput()
		if req.Timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return finish(nil, &protocol.RunError{Kind: protocol.ErrTimeout, File: req.Filename, Message: "timed out after " + req.Timeout.String()})
		}
		return finish(nil, &protocol.RunError{Kind: protocol.ErrInterrupted, File: req.Filename, Message: "interrupted"})
	}
}

// refused applies the opt-in of restricted imports per run, as the
// interpreter does.
func refused(b *Block, req *protocol.ExecRequest) *protocol.RunError {
	allow := map[string]bool{}
	for _, a := range req.Allow {
		allow[a] = true
	}
	var diags []protocol.Diagnostic
	for imp, msg := range b.Restricted {
		if !allow[imp] {
			diags = append(diags, protocol.Diagnostic{File: req.Filename, Message: msg})
		}
	}
	if len(diags) == 0 {
		return nil
	}
	return &protocol.RunError{Kind: protocol.ErrRefused, File: req.Filename, Message: diags[0].Message, Diagnostics: diags}
}

func (e *Executor) names() []string {
	var out []string
	for f := range e.blocks {
		out = append(out, f)
	}
	return out
}

// panicSite is the innermost frame of the panic in the block's own code:
// its entry file or another file of its folder (a helper; the //line
// directives of worker_build.go make frames name them as the project
// does). It was only the entry file, so a panic in a helper was reported
// at the entry's name with the helper's line, or at no line. A block
// named without a folder (strata exec names files by their base name) has
// its helpers matched by name: there the folder test saw every file as
// outside the block, and a helper's panic was put at the entry's call.
func panicSite(entry string, others []protocol.SourceFile) (string, int) {
	dir := path.Dir(entry)
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if f.File == entry || dir != "." && path.Dir(f.File) == dir || dir == "." && isOther(f.File, others) {
			return f.File, f.Line
		}
		if !more {
			return entry, 0
		}
	}
}

func isOther(file string, others []protocol.SourceFile) bool {
	for _, o := range others {
		if o.Name == file {
			return true
		}
	}
	return false
}

// newBlockContext builds the sdk.Context a block receives: the partition in
// its own zone (so Start and End print as the pipeline's local midnight).
func newBlockContext(ctx context.Context, req *protocol.ExecRequest, env *protocol.Env) (*sdk.Context, error) {
	part, err := protocol.BlockPartition(req.Partition)
	if err != nil {
		return nil, err
	}
	return sdk.NewContext(ctx, protocol.BlockConfig(part, req, env)), nil
}
