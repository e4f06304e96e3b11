package interp

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
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
}

func newRunState() *runState { return &runState{goPanic: make(chan string, 1)} }

// rtSymbols is the strata_rt package that rewritten blocks import.
func (e *Executor) rtSymbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		rtPath + "/rt": {
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
