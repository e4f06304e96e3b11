package interp

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"log"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// runState is what the rewritten block reports back through strata_rt while
// it runs. One exec runs at a time per kernel, so the executor keeps one.
type runState struct {
	mu       sync.Mutex
	panicPos [2]int // line, column of the last explicit panic()
	goPos    [2]int // where the goroutine that panicked was started, or the panic line when known
	goPanic  chan string
	goOnce   sync.Once
	line     atomic.Int64 // last statement reached, line<<16 | column (replay only)
	live     atomic.Int64 // guarded goroutines started and not yet ended

	site     [2]int // the last os.Exit or log.Fatal call about to run
	exitOnce sync.Once
	exited   chan struct{} // closed by os.Exit
	exit     [3]int        // code, line, column
}

func newRunState() *runState {
	return &runState{goPanic: make(chan string, 1), exited: make(chan struct{})}
}

// blockExit is os.Exit (and log.Fatal's exit) of a block. Go ends the
// process there without running deferred calls; so does this: it reports
// the exit to the run and parks the calling goroutine for good (the kernel
// is replaced after such a run, which also stops the block's other goroutines).
func (e *Executor) blockExit(code int) {
	if st := e.current(); st != nil {
		st.exitOnce.Do(func() {
			st.mu.Lock()
			st.exit = [3]int{code, st.site[0], st.site[1]}
			st.mu.Unlock()
			close(st.exited)
		})
	}
	select {}
}

// rtSymbols is the strata_rt package that rewritten blocks import.
func (e *Executor) rtSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		rtPath + "/rt": {
			"RunDefers": reflect.ValueOf(runDefers),
			// Print is the builtins print and println (lower_print.go).
			"Print": reflect.ValueOf(e.builtinPrint),
			"PanicAt": reflect.ValueOf(func(line, col int, v any) {
				if st := e.current(); st != nil {
					st.mu.Lock()
					st.panicPos = [2]int{line, col}
					st.mu.Unlock()
				}
				panic(v)
			}),
			"Line": reflect.ValueOf(func(line, col int) {
				if st := e.current(); st != nil {
					st.line.Store(int64(line)<<16 | int64(col&0xffff))
				}
			}),
			// Site marks the line of an os.Exit or log.Fatal call.
			"Site": reflect.ValueOf(func(line, col int) {
				if st := e.current(); st != nil {
					st.mu.Lock()
					st.site = [2]int{line, col}
					st.mu.Unlock()
				}
			}),
			"Eq": reflect.ValueOf(interfaceEqual),
			// LoggerSetPrefix is (*log.Logger).SetPrefix, which yaegi v0.16's
			// log.Logger (a wrapper, see loggerOf) lacks.
			"LoggerSetPrefix": reflect.ValueOf(func(l any, prefix string) { loggerOf(l).SetPrefix(prefix) }),
			// Recovered wraps every recover() of a block. A panic that is
			// yaegi's own (a reflect misuse where Go panics with a runtime
			// error: a method call on a nil interface, an index out of
			// range) would reach the block as a different value, so it
			// goes on up: the run fails as "needs compiled" instead of
			// printing or deciding on the wrong value.
			"Recovered": reflect.ValueOf(func(v any, line, col int) any {
				if v != nil && interpreterFault(v) {
					panic(routedFault{line: line, col: col, msg: fmt.Sprintf("the block recovers a panic that the kernel's interpreter (yaegi) raised inside itself (%v) where Go raises a runtime error, so the recovered value would differ", v)})
				}
				if v != nil && yaegiRunError(v) {
					panic(routedFault{line: line, col: col, msg: fmt.Sprintf("the block recovers a panic that the kernel's interpreter (yaegi) raises as an error of its own, with its position (%v), where Go raises a runtime error (a failed type assertion's *runtime.TypeAssertionError), so the recovered value would differ", v)})
				}
				return v
			}),
			// CodecErr wraps a json/xml Unmarshal, Decode or Encode over
			// the block's types. Their errors name the Go types ("Go struct
			// field Person.age", "Go value of type main.Point"), which
			// yaegi's types lack: such an error would read differently, so
			// the run fails there as "needs compiled" instead.
			"CodecErr": reflect.ValueOf(func(err error, line, col int) error {
				if why := codecErrorDiffers(err); why != "" {
					panic(routedFault{line: line, col: col, msg: fmt.Sprintf("this error (encoding or template) names a type the block declares, which the kernel's interpreter (yaegi) leaves unnamed, so its text would differ (%s: %v)", why, err)})
				}
				return err
			}),
			// ClearMap is clear(m) for a map (yaegi v0.16 lacks clear):
			// reflect's Clear also removes NaN keys, which delete cannot.
			"ClearMap": reflect.ValueOf(func(m any) {
				v := reflect.ValueOf(unwrapValue(m))
				if v.Kind() != reflect.Map {
					panic(fmt.Sprintf("reflect: clear of a map reached the kernel as %s", v.Kind()))
				}
				v.Clear()
			}),
			// Zero sets a named result to its zero value at the function's
			// entry where its type cannot be written there (lower_results.go).
			"Zero": reflect.ValueOf(func(p any) { reflect.ValueOf(p).Elem().SetZero() }),
			// DecodeRune steps a lowered range over a string (lower.go).
			"DecodeRune": reflect.ValueOf(utf8.DecodeRuneInString),
			// ShiftCount is a signed shift count: Go panics on a negative
			// one (yaegi shifted by it as a huge count and gave 0).
			"ShiftCount": reflect.ValueOf(func(n int64) uint64 {
				if n < 0 {
					panic(negativeShift{})
				}
				return uint64(n)
			}),
			"GoEnter": reflect.ValueOf(func() {
				if st := e.current(); st != nil {
					st.live.Add(1)
				}
			}),
			// GoRecovered runs as a goroutine's last deferred call. A kernel
			// whose goroutines outlive their run is replaced, so the run it
			// reports to is always its own.
			"GoRecovered": reflect.ValueOf(func(r any, line, col int) {
				st := e.current()
				if st == nil {
					return
				}
				defer st.live.Add(-1)
				if r == nil {
					return
				}
				msg := fmt.Sprintf("panic in goroutine started at line %d: %v", line, r)
				st.mu.Lock()
				st.goPos = [2]int{line, col}
				if st.panicPos[0] != 0 {
					msg = fmt.Sprintf("panic in goroutine started at line %d: %v (panic at line %d)", line, r, st.panicPos[0])
					st.goPos = st.panicPos
				}
				st.mu.Unlock()
				st.goOnce.Do(func() { st.goPanic <- msg })
			}),
		},
	}
}

// interfaceEqual is a == b for interface values. yaegi hands a value of a
// block's own type to native code inside a wrapper struct (IValue plus one
// func field per method), and comparing two such wrappers panics
// ("comparing uncomparable type interp._error"): compare what they wrap.
// Like Go, a comparison of uncomparable dynamic types panics.
func interfaceEqual(a, b any) bool {
	return unwrapValue(a) == unwrapValue(b)
}

func unwrapValue(v any) any {
	for i := 0; i < 4; i++ {
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Struct {
			return v
		}
		f := rv.FieldByName("IValue")
		if !f.IsValid() || f.Kind() != reflect.Interface {
			return v
		}
		v = f.Interface()
	}
	return v
}

// loggerOf is the *log.Logger behind a block's logger: log.Default() gives
// the real one, while yaegi v0.16's log.New gives its stdlib.logLogger,
// declared as struct{ l *log.Logger } (it only re-routes Fatal to Panic).
func loggerOf(l any) *log.Logger {
	if real, ok := l.(*log.Logger); ok {
		return real
	}
	v := reflect.ValueOf(l)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().NumField() != 1 ||
		v.Elem().Field(0).Type() != reflect.TypeOf((*log.Logger)(nil)) {
		panic(fmt.Sprintf("kernel: SetPrefix on %T, which is not a log.Logger", l))
	}
	return *(**log.Logger)(v.UnsafePointer())
}

// runDefers runs a function's deferred calls (lower_defer.go), last pushed
// first. Each pop defers the next, natively, so a call that panics still
// lets the ones under it run, and the panic goes on, as Go's defers do.
func runDefers(fns *[]func()) {
	if n := len(*fns); n > 0 {
		f := (*fns)[n-1]
		*fns = (*fns)[:n-1]
		defer runDefers(fns)
		f()
	}
}

// routedFault ends a run as "needs compiled" at line, col, with msg: what
// the interpreter found at run time that it would answer differently from
// Go (see Recovered, CodecErr).
type routedFault struct {
	line, col int
	msg       string
}

func (r routedFault) String() string { return r.msg }

// codecErrorDiffers says why an encoding error's text would differ under
// yaegi, or "".
func codecErrorDiffers(err error) string {
	if err == nil {
		return ""
	}
	unnamed := func(t reflect.Type) bool {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		return t != nil && t.Kind() == reflect.Struct && t.Name() == ""
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		if ute.Struct == "" && ute.Field != "" {
			return "the struct of field " + ute.Field
		}
		if unnamed(ute.Type) {
			return "a value of the block's struct type"
		}
		return ""
	}
	// A template's "can't evaluate field X in type Order" names the type:
	// yaegi's is "struct { … }".
	if strings.Contains(err.Error(), "in type struct {") {
		return "a template error naming the block's struct"
	}
	var iue *json.InvalidUnmarshalError
	var ust *json.UnsupportedTypeError
	var me *json.MarshalerError
	var xut *xml.UnsupportedTypeError
	switch {
	case errors.As(err, &iue), errors.As(err, &ust), errors.As(err, &me), errors.As(err, &xut):
		return "an error naming a Go type"
	}
	return ""
}

// negativeShift is the runtime error Go raises for a negative shift count.
type negativeShift struct{}

func (negativeShift) Error() string { return "runtime error: negative shift amount" }
func (negativeShift) RuntimeError() {}
