package interp

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// locatePanic finds the exact line of a runtime panic (a nil map, an index
// out of range, a fault of yaegi's plumbing), which yaegi only places at the
// function: it replays the block once with every statement marked, in a
// fresh interpreter, and keeps the last line reached when the same panic
// recurs. The replay must not repeat what the run did to the world (one
// editor Run appended a line to a file twice), so it has no effects:
// its stdout, stderr and log are discarded, the os and io/ioutil functions
// that write fail with errReplay (replaySymbols), and a block that imports
// a package that reaches further (the network, a database, a module) is not
// replayed at all: its panic stays at the function's line. It gets at most
// what is left of the run's time.
func (e *Executor) locatePanic(ctx context.Context, req *protocol.ExecRequest, p *program, env *protocol.Env, inputs []*sdk.Table, msg string) (line, col int) {
	if p.a.entry == "Export" {
		return 0, 0 // an export's purpose is its effect: never replay one
	}
	if p.fsys != nil {
		return 0, 0 // the replay marks one file's lines; a block of several keeps the function's line
	}
	if unreplayable(p.a.file) != "" {
		return 0, 0
	}
	q := &program{a: p.a, rewrote: p.a.rewriteWith(req.Source, true)}
	q.interp = e.newInterp(q, false)
	for _, c := range []*fileCapture{e.out, e.errOut} {
		if c != nil {
			c.flush()
			c.set(nil) // the replay's output is not the run's
		}
	}
	for _, u := range []interp.Exports{stdlib.Symbols, Symbols, replaySymbols(), e.rtSymbols(), q.proc.symbols()} {
		if err := q.interp.Use(u); err != nil {
			return 0, 0
		}
	}
	if rerr := q.compileOverlays(); rerr != nil {
		return 0, 0
	}
	if rerr := q.eval(req.Filename); rerr != nil {
		return 0, 0
	}
	// Its own context: the replay's log lines are not the run's. It reads
	// the warehouse as the run did.
	bctx, err := newBlockContext(ctx, req, &protocol.Env{Host: env.Host})
	if err != nil {
		return 0, 0
	}
	st := newRunState()
	e.state.Store(st)
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		_, _ = q.call(q.entry, bctx, inputs)
	}()
	select {
	case r := <-done:
		if r != nil && fmt.Sprint(r) == msg {
			at := st.line.Load()
			return int(at >> 16), int(at & 0xffff)
		}
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
	}
	return 0, 0
}

// unreplayable names an import that lets a block act beyond the files the
// replay can fence off (see locatePanic), or "" when there is none.
func unreplayable(f *ast.File) string {
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		first, _, _ := strings.Cut(path, "/")
		switch {
		case path == "github.com/stratahq/strata/blocks/sdk":
		case strings.Contains(first, "."): // a module: what it does is unknown
			return path
		case first == "net", path == "database/sql", path == "log/syslog", path == "os/exec", path == "os/signal",
			path == "syscall", path == "plugin", path == "unsafe", path == "runtime/debug":
			return path
		}
	}
	return ""
}

// errReplay is what an os or io/ioutil function that may change something
// returns during a replay.
var errReplay = errors.New("not run: the kernel replays the block to find a panic's line, without its effects")

// readOnly are the functions of os and io/ioutil a replay runs as such: they
// read, and change nothing.
var readOnly = map[string]bool{
	"Getenv": true, "LookupEnv": true, "Environ": true, "ExpandEnv": true, "Expand": true,
	"ReadFile": true, "ReadDir": true, "Stat": true, "Lstat": true, "Open": true, "DirFS": true,
	"Getwd": true, "Hostname": true, "Getpid": true, "Getppid": true, "Getuid": true, "Getgid": true,
	"Executable": true, "TempDir": true, "UserHomeDir": true, "UserCacheDir": true, "UserConfigDir": true,
	"IsExist": true, "IsNotExist": true, "IsPermission": true, "IsTimeout": true, "SameFile": true,
	"Readlink": true, "Getpagesize": true, "IsPathSeparator": true, "NewSyscallError": true, "ReadAll": true,
}

// replaySymbols are os and io/ioutil for a replay: every function that may
// change something (create, write, remove, rename, chmod, …) returns
// errReplay with zero results, or panics with it when it returns no error.
func replaySymbols() interp.Exports {
	out := interp.Exports{}
	for _, pkg := range []string{"os/os", "io/ioutil/ioutil"} {
		syms := map[string]reflect.Value{}
		for name, v := range stdlib.Symbols[pkg] {
			if v.Kind() != reflect.Func || readOnly[name] {
				continue
			}
			t := v.Type()
			syms[name] = reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value {
				n := t.NumOut()
				if n == 0 || t.Out(n-1) != reflect.TypeOf((*error)(nil)).Elem() {
					panic(errReplay)
				}
				res := make([]reflect.Value, n)
				for i := 0; i < n-1; i++ {
					res[i] = reflect.Zero(t.Out(i))
				}
				res[n-1] = reflect.ValueOf(&errReplay).Elem()
				return res
			})
		}
		out[pkg] = syms
	}
	return out
}
