package interp

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"
)

// blockProcess is what a block sees of "its own process": os.Args, the flag
// command line, the environment, the standard logger and os.Exit. yaegi
// would otherwise hand it the kernel's own (flag.Args() printed the kernel's
// argv) or bind them once per interpreter; reset gives every run a clean one,
// as `go run` gives every program a fresh process.
type blockProcess struct {
	stderr io.Writer
	exit   func(code int) // ends the run as os.Exit ends a program
	// stderrFile, when set, is os.Stderr: a real file whose bytes reach the
	// run's stderr stream (see fileCapture).
	stderrFile *os.File

	mu      sync.Mutex
	args    []string
	cmdline *flag.FlagSet
	usage   func()
	env     map[string]string
	logger  *log.Logger
}

// blockArgs is os.Args of a block: a program named "block" with no arguments.
var blockArgs = []string{"block"}

func newBlockProcess(stderr io.Writer, exit func(int)) *blockProcess {
	p := &blockProcess{stderr: stderr, exit: exit}
	p.reset()
	return p
}

func (p *blockProcess) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.args = append([]string(nil), blockArgs...)
	p.cmdline = flag.NewFlagSet(p.args[0], flag.ContinueOnError)
	p.cmdline.SetOutput(p.stderr)
	p.usage = func() {
		fmt.Fprintf(p.stderr, "Usage of %s:\n", p.args[0])
		p.cmdline.PrintDefaults()
	}
	p.cmdline.Usage = func() { p.usage() }
	p.env = map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		p.env[k] = v
	}
	p.logger = log.New(p.stderr, "", log.LstdFlags)
}

func (p *blockProcess) fs() *flag.FlagSet { p.mu.Lock(); defer p.mu.Unlock(); return p.cmdline }
func (p *blockProcess) lg() *log.Logger   { p.mu.Lock(); defer p.mu.Unlock(); return p.logger }

func (p *blockProcess) getenv(k string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.env[k]
	return v, ok
}

// symbols overrides the os, flag and log functions that reach process state.
// Used after the standard library, so these win.
func (p *blockProcess) symbols() map[string]map[string]reflect.Value {
	fs := p.fs
	parse := func() {
		switch err := fs().Parse(p.args[1:]); {
		case err == flag.ErrHelp:
			p.exit(0)
		case err != nil:
			p.exit(2)
		}
	}
	getenv := func(k string) string { v, _ := p.getenv(k); return v }
	fatal := func(s string) {
		_ = p.lg().Output(3, s)
		p.exit(1)
	}
	syms := map[string]map[string]reflect.Value{
		"os/os": {
			"Args":      reflect.ValueOf(&p.args).Elem(),
			"Exit":      reflect.ValueOf(func(code int) { p.exit(code) }),
			"Getenv":    reflect.ValueOf(getenv),
			"LookupEnv": reflect.ValueOf(p.getenv),
			"Setenv": reflect.ValueOf(func(k, v string) error {
				p.mu.Lock()
				defer p.mu.Unlock()
				p.env[k] = v
				return nil
			}),
			"Unsetenv": reflect.ValueOf(func(k string) error {
				p.mu.Lock()
				defer p.mu.Unlock()
				delete(p.env, k)
				return nil
			}),
			"Clearenv": reflect.ValueOf(func() { p.mu.Lock(); p.env = map[string]string{}; p.mu.Unlock() }),
			"Environ": reflect.ValueOf(func() []string {
				p.mu.Lock()
				defer p.mu.Unlock()
				out := make([]string, 0, len(p.env))
				for k, v := range p.env {
					out = append(out, k+"="+v)
				}
				return out
			}),
			"ExpandEnv": reflect.ValueOf(func(s string) string { return os.Expand(s, getenv) }),
		},
		"flag/flag": {
			"CommandLine":   reflect.ValueOf(&p.cmdline).Elem(),
			"Usage":         reflect.ValueOf(&p.usage).Elem(),
			"Parse":         reflect.ValueOf(parse),
			"Parsed":        reflect.ValueOf(func() bool { return fs().Parsed() }),
			"Args":          reflect.ValueOf(func() []string { return fs().Args() }),
			"Arg":           reflect.ValueOf(func(i int) string { return fs().Arg(i) }),
			"NArg":          reflect.ValueOf(func() int { return fs().NArg() }),
			"NFlag":         reflect.ValueOf(func() int { return fs().NFlag() }),
			"Set":           reflect.ValueOf(func(n, v string) error { return fs().Set(n, v) }),
			"Lookup":        reflect.ValueOf(func(n string) *flag.Flag { return fs().Lookup(n) }),
			"Visit":         reflect.ValueOf(func(f func(*flag.Flag)) { fs().Visit(f) }),
			"VisitAll":      reflect.ValueOf(func(f func(*flag.Flag)) { fs().VisitAll(f) }),
			"PrintDefaults": reflect.ValueOf(func() { fs().PrintDefaults() }),
			"Bool":          reflect.ValueOf(func(n string, v bool, u string) *bool { return fs().Bool(n, v, u) }),
			"BoolVar":       reflect.ValueOf(func(x *bool, n string, v bool, u string) { fs().BoolVar(x, n, v, u) }),
			"Int":           reflect.ValueOf(func(n string, v int, u string) *int { return fs().Int(n, v, u) }),
			"IntVar":        reflect.ValueOf(func(x *int, n string, v int, u string) { fs().IntVar(x, n, v, u) }),
			"Int64":         reflect.ValueOf(func(n string, v int64, u string) *int64 { return fs().Int64(n, v, u) }),
			"Int64Var":      reflect.ValueOf(func(x *int64, n string, v int64, u string) { fs().Int64Var(x, n, v, u) }),
			"Uint":          reflect.ValueOf(func(n string, v uint, u string) *uint { return fs().Uint(n, v, u) }),
			"UintVar":       reflect.ValueOf(func(x *uint, n string, v uint, u string) { fs().UintVar(x, n, v, u) }),
			"Uint64":        reflect.ValueOf(func(n string, v uint64, u string) *uint64 { return fs().Uint64(n, v, u) }),
			"Uint64Var":     reflect.ValueOf(func(x *uint64, n string, v uint64, u string) { fs().Uint64Var(x, n, v, u) }),
			"Float64":       reflect.ValueOf(func(n string, v float64, u string) *float64 { return fs().Float64(n, v, u) }),
			"Float64Var":    reflect.ValueOf(func(x *float64, n string, v float64, u string) { fs().Float64Var(x, n, v, u) }),
			"String":        reflect.ValueOf(func(n string, v string, u string) *string { return fs().String(n, v, u) }),
			"StringVar":     reflect.ValueOf(func(x *string, n string, v string, u string) { fs().StringVar(x, n, v, u) }),
			"Duration":      reflect.ValueOf(func(n string, v time.Duration, u string) *time.Duration { return fs().Duration(n, v, u) }),
			"DurationVar":   reflect.ValueOf(func(x *time.Duration, n string, v time.Duration, u string) { fs().DurationVar(x, n, v, u) }),
			"Var":           reflect.ValueOf(func(v flag.Value, n, u string) { fs().Var(v, n, u) }),
			"Func":          reflect.ValueOf(func(n, u string, f func(string) error) { fs().Func(n, u, f) }),
			"BoolFunc":      reflect.ValueOf(func(n, u string, f func(string) error) { fs().BoolFunc(n, u, f) }),
		},
		"log/log": {
			"Default":   reflect.ValueOf(func() *log.Logger { return p.lg() }),
			"Print":     reflect.ValueOf(func(v ...any) { _ = p.lg().Output(2, fmt.Sprint(v...)) }),
			"Printf":    reflect.ValueOf(func(f string, v ...any) { _ = p.lg().Output(2, fmt.Sprintf(f, v...)) }),
			"Println":   reflect.ValueOf(func(v ...any) { _ = p.lg().Output(2, fmt.Sprintln(v...)) }),
			"Fatal":     reflect.ValueOf(func(v ...any) { fatal(fmt.Sprint(v...)) }),
			"Fatalf":    reflect.ValueOf(func(f string, v ...any) { fatal(fmt.Sprintf(f, v...)) }),
			"Fatalln":   reflect.ValueOf(func(v ...any) { fatal(fmt.Sprintln(v...)) }),
			"Panic":     reflect.ValueOf(func(v ...any) { s := fmt.Sprint(v...); _ = p.lg().Output(2, s); panic(s) }),
			"Panicf":    reflect.ValueOf(func(f string, v ...any) { s := fmt.Sprintf(f, v...); _ = p.lg().Output(2, s); panic(s) }),
			"Panicln":   reflect.ValueOf(func(v ...any) { s := fmt.Sprintln(v...); _ = p.lg().Output(2, s); panic(s) }),
			"Flags":     reflect.ValueOf(func() int { return p.lg().Flags() }),
			"SetFlags":  reflect.ValueOf(func(f int) { p.lg().SetFlags(f) }),
			"Prefix":    reflect.ValueOf(func() string { return p.lg().Prefix() }),
			"SetPrefix": reflect.ValueOf(func(s string) { p.lg().SetPrefix(s) }),
			"Writer":    reflect.ValueOf(func() io.Writer { return p.lg().Writer() }),
			"SetOutput": reflect.ValueOf(func(w io.Writer) { p.lg().SetOutput(w) }),
			"Output":    reflect.ValueOf(func(d int, s string) error { return p.lg().Output(d+1, s) }),
		},
	}
	if p.stderrFile != nil {
		syms["os/os"]["Stderr"] = reflect.ValueOf(&p.stderrFile).Elem()
	}
	withPrintWrappers(syms, "log/log", "Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln")
	return syms
}
