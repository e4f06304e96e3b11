package interp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/syscall"
	"github.com/traefik/yaegi/stdlib/unrestricted"
	"github.com/traefik/yaegi/stdlib/unsafe"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/procstate"
	"github.com/stratahq/strata/kernel/protocol"
)

// Executor runs blocks in yaegi. It implements protocol.Executor.
//
// Compiled programs are cached by source hash, so re-running an unchanged
// block skips parsing and evaluation. A changed block is a new hash, hence a
// fresh interpreter: nothing of the old version survives. A block with
// package-level variables is never reused (its state would leak between runs).
type Executor struct {
	importer *symbolImporter
	state    atomic.Pointer[runState]

	mu    sync.Mutex
	cache map[string]*program

	// out is the interpreter's stdout: a real *os.File (see fileCapture);
	// nil when no pipe could be made, and then os.Stdout is not captured.
	out *fileCapture
	// errOut is os.Stderr of blocks, the same way (yaegi's own stderr,
	// which carries its panic traces, stays a plain writer).
	errOut *fileCapture
	// stdin is an empty file: a block reading stdin gets EOF at once
	// instead of the kernel's protocol stream.
	stdin *os.File
}

// NewExecutor returns an executor with the standard library and the SDK.
func NewExecutor() *Executor {
	all := yaegi.Exports{}
	for k, v := range stdlib.Symbols {
		all[k] = v
	}
	// Restricted packages are known to the type checker so that an opted-in
	// block type-checks; analyze refuses them without the opt-in.
	// Merged symbol by symbol: unrestricted.Symbols holds only the extra
	// os, log and syscall symbols (os.Exit, log.Fatal, syscall.Exec), and
	// replacing whole packages with it hid the rest of os and log.
	for _, set := range []yaegi.Exports{Symbols, unrestricted.Symbols, unsafe.Symbols, syscall.Symbols, moduleSymbols()} {
		for k, v := range set {
			merged := map[string]reflect.Value{}
			for n, sym := range all[k] {
				merged[n] = sym
			}
			for n, sym := range v {
				merged[n] = sym
			}
			all[k] = merged
		}
	}
	e := &Executor{importer: newSymbolImporter(all), cache: map[string]*program{}}
	if c, err := newFileCapture(); err == nil {
		e.out = c
		if len(moduleSymbols()) > 0 {
			// A module's compiled code prints to the process's os.Stdout
			// (golang.org/x/text/message's Printer.Printf): in a project
			// kernel that is the run's stdout too, as in go run. The
			// protocol has its own copy of fd 1 (kernel/child).
			os.Stdout = c.w
		}
	}
	if c, err := newFileCapture(); err == nil {
		e.errOut = c
	}
	if f, err := os.Open(os.DevNull); err == nil {
		e.stdin = f
	}
	return e
}

// Name identifies the executor in the kernel's ready message.
func (e *Executor) Name() string { return "yaegi" }

func (e *Executor) current() *runState { return e.state.Load() }

type program struct {
	a       *analysis
	interp  *yaegi.Interpreter
	entry   reflect.Value
	check   reflect.Value
	stdout  switchWriter
	stderr  switchWriter
	proc    *blockProcess
	reuse   bool
	funcAt  []funcSpan
	rewrote string
	// fsys holds the rewritten files of a block with several, as the
	// source package blockImportPrefix+<package> (nil for one file).
	fsys fs.FS
	// registers: the block adds a name to a process-wide registry
	// (expvar.NewInt, http.HandleFunc, sql.Register), which the next
	// run in this process would add again and panic: the kernel restarts
	// after each of its runs, as go run gives each program a process.
	registers bool
}

type funcSpan struct {
	name       string
	start, end int
}

func (e *Executor) program(req *protocol.ExecRequest) (*program, *protocol.RunError) {
	filename := req.Filename
	if filename == "" {
		filename = "block.go"
	}
	allow := map[string]bool{}
	for _, p := range req.Allow {
		allow[p] = true
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", filename, req.Entry, strings.Join(req.Allow, ","), req.Source)
	for _, f := range req.Files {
		fmt.Fprintf(h, "\x00%s\x00%s", f.Name, f.Source)
	}
	key := fmt.Sprintf("%x", h.Sum(nil))
	e.mu.Lock()
	p := e.cache[key]
	if p != nil && !p.reuse {
		delete(e.cache, key)
		p = nil
	}
	e.mu.Unlock()
	if p != nil {
		return p, nil
	}

	a, rerr := e.analyze(filename, req.Source, req.Entry, allow, req.Files...)
	if rerr != nil {
		return nil, rerr
	}
	p = &program{a: a, reuse: !a.hasVars && !a.hasInit, registers: procstate.Registers(a.files) != ""}
	p.rewrote = a.rewrite(req.Source)
	if a.multiFile() {
		p.fsys = a.packageFS(false)
	}
	p.funcAt = funcSpans(a)

	p.interp = e.newInterp(p, allow["os/exec"])
	uses := []yaegi.Exports{stdlib.Symbols, Symbols, e.rtSymbols()}
	if m := moduleSymbols(); len(m) > 0 {
		uses = append(uses, m)
	}
	if allow["os/exec"] {
		uses = append(uses, unrestricted.Symbols)
	}
	if allow["unsafe"] {
		uses = append(uses, unsafe.Symbols)
	}
	if allow["syscall"] {
		// The process-ending calls (Exec, Kill, ForkExec) live in unrestricted.
		uses = append(uses, syscall.Symbols, yaegi.Exports{"syscall/syscall": unrestricted.Symbols["syscall/syscall"]})
	}
	// Last, so that they win over the standard library's own.
	uses = append(uses, p.proc.symbols())
	for _, u := range uses {
		if err := p.interp.Use(u); err != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrCompile, Message: "load symbols: " + err.Error()}
		}
	}
	if rerr := p.compileOverlays(); rerr != nil {
		return nil, rerr
	}
	if rerr := p.eval(filename); rerr != nil {
		return nil, rerr
	}
	e.mu.Lock()
	if len(e.cache) > 64 { // a long editor session must not grow without bound
		clear(e.cache)
	}
	e.cache[key] = p
	e.mu.Unlock()
	return p, nil
}

// newInterp makes the interpreter of p: stdout is the executor's pipe (so
// os.Stdout is a real file that reaches the run's stream), stdin is empty.
func (e *Executor) newInterp(p *program, unrestricted bool) *yaegi.Interpreter {
	p.proc = newBlockProcess(&p.stderr, e.blockExit)
	if e.errOut != nil {
		p.proc.stderrFile = e.errOut.w
	}
	opt := yaegi.Options{Stdout: &p.stdout, Stderr: &p.stderr, Args: blockArgs, Unrestricted: unrestricted}
	if p.fsys != nil {
		opt.GoPath, opt.SourcecodeFilesystem = ".", p.fsys
	}
	if e.out != nil {
		opt.Stdout = e.out.w
	}
	if e.stdin != nil {
		opt.Stdin = e.stdin
	}
	return yaegi.New(opt)
}

// compileOverlays loads the overlaid standard packages the block imports.
func (p *program) compileOverlays() *protocol.RunError {
	for _, imp := range p.a.file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if _, ok := overlays[path]; !ok {
			continue
		}
		if _, err := p.interp.Compile(overlayForInterp(path)); err != nil {
			return &protocol.RunError{Kind: protocol.ErrCompile, Message: fmt.Sprintf("kernel: load its copy of %s: %v", path, err)}
		}
	}
	return nil
}

// eval loads the rewritten file and looks up its functions. yaegi panics on
// some inputs it cannot compile; that becomes an error at the block's line.
func (p *program) eval(filename string) (rerr *protocol.RunError) {
	defer func() {
		if r := recover(); r != nil {
			// A fault of yaegi's plumbing (reflect's panics) or a routed
			// runtime fault while loading came from the block's initializers
			// running, not from compiling: they had their effects.
			_, routed := r.(routedFault)
			rerr = &protocol.RunError{Kind: protocol.ErrUnsupported, File: filename,
				Message: fmt.Sprintf("%sthe kernel's interpreter (yaegi) cannot compile this block: %v", NeedsCompiledPrefix, r), Started: routed || interpreterFault(r)}
			// yaegi's panic usually starts with the position it was at
			// ("64:7: CFG post-order panic: …"): the block's own line.
			if m := posPrefix.FindStringSubmatch(fmt.Sprint(r)); m != nil {
				rerr.File = p.a.fileOf(fmt.Sprint(r), filename)
				rerr.Line, _ = strconv.Atoi(m[1])
				rerr.Column, _ = strconv.Atoi(m[2])
				rerr.Message = fmt.Sprintf("%sthe kernel's interpreter (yaegi) cannot compile this block: %s", NeedsCompiledPrefix, strings.TrimPrefix(fmt.Sprint(r), m[0]))
				rerr.Diagnostics = []protocol.Diagnostic{{File: rerr.File, Line: rerr.Line, Column: rerr.Column, Message: rerr.Message}}
			}
		}
	}()
	load := p.rewrote
	if p.fsys != nil {
		load = fmt.Sprintf("import %q", blockImportPrefix+p.a.file.Name.Name)
	}
	if _, err := p.interp.Eval(load); err != nil {
		// The block type-checked, so what yaegi refuses is its own gap.
		rerr := yaegiError(p.a.fileOf(err.Error(), filename), err, protocol.ErrUnsupported)
		rerr.Message = NeedsCompiledPrefix + "the kernel's interpreter (yaegi) cannot compile this valid Go: " + rerr.Message
		if errors.As(err, new(yaegi.Panic)) {
			// yaegi ran the package's initializers and one of them hit a
			// fault of its own: they had their effects.
			rerr.Started = true
			rerr.Message = strings.Replace(rerr.Message, "cannot compile this valid Go", "failed running this valid Go as the block loaded (a package variable's initializer or an init function)", 1)
		}
		for i := range rerr.Diagnostics {
			rerr.Diagnostics[i].Message = rerr.Message
		}
		return rerr
	}
	pkg := p.a.file.Name.Name
	v, err := p.interp.Eval(pkg + "." + p.a.entry)
	if err != nil {
		return yaegiError(filename, err, protocol.ErrCompile)
	}
	p.entry = v
	if p.a.check {
		if p.check, err = p.interp.Eval(pkg + ".Check"); err != nil {
			return yaegiError(filename, err, protocol.ErrCompile)
		}
	}
	return nil
}

var posPrefix = regexp.MustCompile(`^(?:[^:\s]*:)?(\d+):(\d+): `)

// yaegiError maps yaegi's "line:col: message" (positions of the rewritten
// source, whose lines are the block's own) onto the block file.
func yaegiError(filename string, err error, kind protocol.ErrorKind) *protocol.RunError {
	msg := err.Error()
	re := &protocol.RunError{Kind: kind, File: filename, Message: msg}
	if m := posPrefix.FindStringSubmatch(msg); m != nil {
		re.Line, _ = strconv.Atoi(m[1])
		re.Column, _ = strconv.Atoi(m[2])
		re.Message = strings.TrimPrefix(msg, m[0])
		re.Message = strings.ReplaceAll(re.Message, rtAlias+".PanicAt", "panic")
		re.Diagnostics = []protocol.Diagnostic{{File: filename, Line: re.Line, Column: re.Column, Message: re.Message}}
	}
	return re
}

// Exec runs one block. A run that times out, is interrupted or has a
// goroutine panic leaves the block's goroutines running, so the result asks
// the supervisor to restart the kernel.
func (e *Executor) Exec(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, env *protocol.Env) (*sdk.Table, *protocol.Result) {
	start := time.Now()
	res := &protocol.Result{}
	var p *program
	finish := func(t *sdk.Table, rerr *protocol.RunError) (*sdk.Table, *protocol.Result) {
		res.Error = rerr
		res.Duration = time.Since(start)
		if p != nil && p.registers && !req.CheckOnly {
			res.Restart = true // see program.registers
		}
		return t, res
	}
	if e.out != nil && !req.CheckOnly {
		// Connected before the block loads: yaegi runs package variables'
		// initializers and init functions then, and what they print comes
		// first in the run's stdout, as in Go (it went nowhere, or, left in
		// the pipe, reached the run only by chance).
		e.out.set(env.Stdout)
		defer e.out.set(nil)
		defer e.out.flush() // runs first: what the block wrote reaches this run
	}
	// Loading runs the package's initializers and init functions: an
	// os.Exit or log.Fatal there parks its goroutine for good (blockExit),
	// and the run waited for it until its timeout ("timed out after 10s"
	// where compiled reports the exit at its line). So the load runs in a
	// goroutine of its own, with a run state to report the exit to.
	loading := newRunState()
	e.state.Store(loading)
	type loaded struct {
		p    *program
		rerr *protocol.RunError
	}
	lc := make(chan loaded, 1)
	go func() {
		p, rerr := e.program(req)
		lc <- loaded{p, rerr}
	}()
	var rerr *protocol.RunError
	select {
	case l := <-lc:
		p, rerr = l.p, l.rerr
		e.state.Store(nil)
	case <-loading.exited:
		e.state.Store(nil)
		res.Restart = true // the goroutine that called os.Exit never returns
		loading.mu.Lock()
		code, line, col := loading.exit[0], loading.exit[1], loading.exit[2]
		loading.mu.Unlock()
		return finish(nil, &protocol.RunError{Kind: protocol.ErrPanic, File: req.Filename, Line: line, Column: col,
			Message: fmt.Sprintf("block called os.Exit(%d) as it loaded: a block cannot end the kernel, so the run stops here (deferred calls do not run, as in Go); return an error instead", code)})
	case <-ctx.Done():
		e.state.Store(nil)
		res.Restart = true // its initializers still run
		return finish(nil, stoppedError(req, req.Filename, ctx.Err()))
	}
	if rerr != nil {
		p = nil
		return finish(nil, rerr)
	}
	res.Entry = p.a.entry
	if req.CheckOnly {
		return finish(nil, nil)
	}
	if len(inputs) != p.a.tables {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrCompile, File: p.a.fset.Position(p.a.file.Name.Pos()).Filename,
			Message: fmt.Sprintf("%s takes %d table(s) but the run has %d input(s)%s", p.a.entry, p.a.tables, len(inputs), inputNames(req.Inputs))})
	}
	if e.out != nil && env.Log != nil {
		// ctx.Log lines keep their order with the block's stdout.
		logf := env.Log
		envCopy := *env
		envCopy.Log = func(level, msg string) {
			e.out.flush()
			if e.errOut != nil {
				e.errOut.flush()
			}
			logf(level, msg)
		}
		env = &envCopy
	}
	bctx, err := newBlockContext(ctx, req, env)
	if err != nil {
		return finish(nil, &protocol.RunError{Kind: protocol.ErrRuntime, Message: err.Error()})
	}

	st := newRunState()
	e.state.Store(st)
	defer e.state.Store(nil)
	var trace bytes.Buffer
	p.proc.reset()
	p.stdout.set(env.Stdout)
	// Each stream flushes the captured files before it writes, so that
	// stdout, os.Stderr and the log keep the order the block wrote them in.
	stderr, logStderr := env.Stderr, env.Stderr
	if e.out != nil {
		stderr = flushingWriter{c: []*fileCapture{e.out}, w: env.Stderr}
		logStderr = stderr
		if e.errOut != nil {
			logStderr = flushingWriter{c: []*fileCapture{e.out, e.errOut}, w: env.Stderr}
		}
	}
	p.stderr.set(&traceSplitter{stderr: logStderr, trace: io.MultiWriter(traceOrDiscard(env.Trace), &limitedBuffer{b: &trace, max: 64 << 10})})
	if e.errOut != nil {
		e.errOut.set(stderr)
		defer e.errOut.set(nil)
		defer e.errOut.flush()
	}
	defer p.stdout.set(nil)
	defer p.stderr.set(nil)

	type outcome struct {
		table    *sdk.Table
		err      error
		panicked any
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o.panicked = r
			}
			done <- o
		}()
		o.table, o.err = p.call(p.entry, bctx, inputs)
		if o.err == nil && p.check.IsValid() && o.table != nil {
			if cerr := p.callCheck(bctx, o.table); cerr != nil {
				o.err = checkError{cerr}
			}
		}
	}()

	filename := p.a.fset.Position(p.a.file.Name.Pos()).Filename
	select {
	case o := <-done:
		// A goroutine that panicked may still be unwinding (its own defers,
		// such as wg.Done, run before its recover): wait briefly for the
		// block's goroutines, and let a panic among them decide the run.
		for i := 0; i < 100 && st.live.Load() > 0; i++ {
			time.Sleep(time.Millisecond)
		}
		if st.live.Load() > 0 {
			res.Restart = true // goroutines outlive the run: give the next run a clean kernel
		}
		select {
		case msg := <-st.goPanic:
			st.mu.Lock()
			pos := st.goPos
			st.mu.Unlock()
			file, col := p.fileColumn(filename, pos[1])
			return finish(nil, &protocol.RunError{Kind: protocol.ErrPanic, File: file, Message: msg, Line: pos[0], Column: col})
		default:
		}
		rf, routed := o.panicked.(routedFault)
		switch {
		case routed:
			file, col := p.fileColumn(filename, rf.col)
			return finish(nil, &protocol.RunError{Kind: protocol.ErrUnsupported, File: file, Line: rf.line, Column: col,
				Message: NeedsCompiledPrefix + rf.msg, Started: true})
		case o.panicked != nil && interpreterFault(o.panicked):
			// reflect's own panics come from yaegi's plumbing, not the block.
			// They are reported at the block's line, as a panic is: they
			// named none (corpus adv7_yaegi_fault_line).
			rerr := &protocol.RunError{Kind: protocol.ErrUnsupported, File: filename,
				Message: fmt.Sprintf("%sthe kernel's interpreter (yaegi) failed running this valid Go: %v", NeedsCompiledPrefix, o.panicked), Started: true}
			if line, col := e.locatePanic(ctx, req, p, env, inputs, fmt.Sprint(o.panicked)); line > 0 {
				rerr.Line, rerr.Column = line, col
			} else if pe := p.panicError(filename, o.panicked, st, trace.String()); pe.Line > 0 {
				rerr.File, rerr.Line, rerr.Column = pe.File, pe.Line, pe.Column
			}
			return finish(nil, rerr)
		case o.panicked != nil:
			rerr := p.panicError(filename, o.panicked, st, trace.String())
			st.mu.Lock()
			explicit := st.panicPos[0] != 0
			st.mu.Unlock()
			if !explicit && !strings.HasPrefix(fmt.Sprint(o.panicked), "os.Exit(") {
				if line, col := e.locatePanic(ctx, req, p, env, inputs, fmt.Sprint(o.panicked)); line > 0 {
					rerr.Line, rerr.Column = line, col
					rerr.Message = "panic: " + fmt.Sprint(o.panicked)
				}
			}
			return finish(nil, rerr)
		case o.err != nil:
			if ce, ok := o.err.(checkError); ok {
				return finish(o.table, &protocol.RunError{Kind: protocol.ErrCheck, File: filename, Message: "Check failed: " + ce.err.Error()})
			}
			if ctx.Err() != nil && errors.Is(o.err, ctx.Err()) {
				// The block honoured the interrupt or deadline before this
				// select saw it: the run was stopped, not failed.
				return finish(nil, stoppedError(req, filename, ctx.Err()))
			}
			return finish(nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: filename, Message: fmt.Sprintf("%s returned an error: %v", p.a.entry, o.err)})
		case p.a.entry != "Export" && o.table == nil:
			return finish(nil, &protocol.RunError{Kind: protocol.ErrOutput, File: filename, Message: p.a.entry + " returned a nil table and no error"})
		case o.table != nil:
			if verr := o.table.Validate(); verr != nil {
				return finish(nil, &protocol.RunError{Kind: protocol.ErrOutput, File: filename, Message: "output table: " + verr.Error()})
			}
		}
		return finish(o.table, nil)
	case <-st.exited:
		res.Restart = true // the goroutine that called os.Exit never returns
		st.mu.Lock()
		code, line, col := st.exit[0], st.exit[1], st.exit[2]
		st.mu.Unlock()
		file, col := p.fileColumn(filename, col)
		return finish(nil, &protocol.RunError{Kind: protocol.ErrPanic, File: file, Line: line, Column: col,
			Message: fmt.Sprintf("block called os.Exit(%d): a block cannot end the kernel, so the run stops here (deferred calls do not run, as in Go); return an error instead", code)})
	case msg := <-st.goPanic:
		res.Restart = true
		st.mu.Lock()
		pos := st.goPos
		st.mu.Unlock()
		file, col := p.fileColumn(filename, pos[1])
		return finish(nil, &protocol.RunError{Kind: protocol.ErrPanic, File: file, Message: msg, Line: pos[0], Column: col})
	case <-ctx.Done():
		// A block that honours ctx.Done stops by itself; then the kernel
		// stays clean and needs no restart.
		select {
		case <-done:
		case <-time.After(400 * time.Millisecond): // within the supervisor's 500ms grace
			res.Restart = true
		}
		return finish(nil, stoppedError(req, filename, ctx.Err()))
	}
}

// interpreterFault reports whether a panic is the interpreter's, not the
// block's: reflect's misuse messages ("reflect: Call with too many input
// arguments") never come from type-checked Go code.
func interpreterFault(v any) bool {
	return strings.HasPrefix(fmt.Sprint(v), "reflect: ") || strings.HasPrefix(fmt.Sprint(v), "reflect.")
}

// yaegiRunError reports whether a panic is one yaegi raises itself at run
// time as its *interp.cfgError ("19:9: interface conversion: interface {}
// is string, not int"): Go's value for a failed type assertion is a
// *runtime.TypeAssertionError, whose message has no position.
func yaegiRunError(v any) bool {
	t := reflect.TypeOf(v)
	return t != nil && t.Kind() == reflect.Pointer && t.Elem().PkgPath() == "github.com/traefik/yaegi/interp" && t.Elem().Name() == "cfgError"
}

type checkError struct{ err error }

func (c checkError) Error() string { return c.err.Error() }

// call invokes the entry. The common shapes are called through a type
// assertion, which is faster than reflect.Value.Call.
func (p *program) call(fn reflect.Value, ctx *sdk.Context, inputs []*sdk.Table) (*sdk.Table, error) {
	switch f := fn.Interface().(type) {
	case func(*sdk.Context) (*sdk.Table, error):
		return f(ctx)
	case func(*sdk.Context, *sdk.Table) (*sdk.Table, error):
		return f(ctx, inputs[0])
	case func(*sdk.Context, *sdk.Table) error:
		return nil, f(ctx, inputs[0])
	}
	args := []reflect.Value{reflect.ValueOf(ctx)}
	for _, in := range inputs {
		args = append(args, reflect.ValueOf(in))
	}
	out := fn.Call(args)
	errv := out[len(out)-1]
	var err error
	if !errv.IsNil() {
		err = errv.Interface().(error)
	}
	if len(out) == 2 {
		t, _ := out[0].Interface().(*sdk.Table)
		return t, err
	}
	return nil, err
}

func (p *program) callCheck(ctx *sdk.Context, out *sdk.Table) error {
	if f, ok := p.check.Interface().(func(*sdk.Context, *sdk.Table) error); ok {
		return f(ctx, out)
	}
	res := p.check.Call([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(out)})
	if res[0].IsNil() {
		return nil
	}
	return res[0].Interface().(error)
}

var tracePos = regexp.MustCompile(`(?m)^(?:[^:\s]*:)?(\d+):(\d+): panic`)

// panicError names the panic and where it happened: the exact line for an
// explicit panic(), else the function yaegi was running.
func (p *program) panicError(filename string, v any, st *runState, trace string) *protocol.RunError {
	msg := fmt.Sprint(v)
	if strings.HasPrefix(msg, "os.Exit(") {
		return &protocol.RunError{Kind: protocol.ErrPanic, File: filename, Message: "block called " + msg + ": a block cannot end the kernel; return an error instead"}
	}
	re := &protocol.RunError{Kind: protocol.ErrPanic, File: filename, Message: "panic: " + msg}
	st.mu.Lock()
	pos := st.panicPos
	st.mu.Unlock()
	if pos[0] > 0 {
		re.Line = pos[0]
		re.File, re.Column = p.fileColumn(filename, pos[1])
		return re
	}
	if m := tracePos.FindStringSubmatch(trace); m != nil {
		line, _ := strconv.Atoi(m[1])
		if fs := p.funcContaining(line); fs != nil {
			re.Line = fs.start
			re.Message += fmt.Sprintf(" (in %s, which starts at line %d)", fs.name, fs.start)
		} else {
			re.Line = line
		}
	}
	return re
}

// colFileShift places a file's index in the columns the rewritten source
// passes to strata_rt (PanicAt, Site, GoRecovered).
const colFileShift = 20

// fileColumn splits such a column into the block file it is in (filename
// for the block's own) and the column.
func (p *program) fileColumn(filename string, col int) (string, int) {
	i := col >> colFileShift
	if i > 0 && i < len(p.a.names) {
		filename = p.a.names[i]
	}
	return filename, col & (1<<colFileShift - 1)
}

func (p *program) funcContaining(line int) *funcSpan {
	var best *funcSpan
	for i := range p.funcAt {
		f := &p.funcAt[i]
		if f.start <= line && line <= f.end && (best == nil || f.start > best.start) {
			best = f
		}
	}
	return best
}

func inputNames(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}

// switchWriter lets one interpreter write to each run's own streams.
type switchWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *switchWriter) set(w io.Writer) { s.mu.Lock(); s.w = w; s.mu.Unlock() }

func (s *switchWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	if w == nil {
		return len(b), nil // a goroutine outliving its run writes nowhere
	}
	return w.Write(b)
}

// traceSplitter sends the interpreter's panic trace lines, which yaegi
// writes one per call, apart from what the block itself writes to stderr.
type traceSplitter struct {
	stderr, trace io.Writer
}

func (t *traceSplitter) Write(b []byte) (int, error) {
	if tracePos.Match(b) {
		return t.trace.Write(b)
	}
	return t.stderr.Write(b)
}

func traceOrDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

type limitedBuffer struct {
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.b.Len(); room > 0 {
		if len(p) > room {
			l.b.Write(p[:room])
		} else {
			l.b.Write(p)
		}
	}
	return len(p), nil
}

// stoppedError is the error of a run its context ended: a timeout or an
// interrupt.
func stoppedError(req *protocol.ExecRequest, filename string, err error) *protocol.RunError {
	if req.Timeout > 0 && err == context.DeadlineExceeded {
		return &protocol.RunError{Kind: protocol.ErrTimeout, File: filename, Message: "timed out after " + req.Timeout.String()}
	}
	return &protocol.RunError{Kind: protocol.ErrInterrupted, File: filename, Message: "interrupted"}
}
