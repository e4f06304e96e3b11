package interp

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"

	"github.com/traefik/yaegi/stdlib"
)

// yaegi hands a value of a block's own type to a native function in a
// wrapper that implements only the interfaces stdlib.MapTypes lists for
// that function; for fmt's and log's printers those are fmt.Formatter and
// fmt.Stringer, not error. So a block's own error type printed by fmt
// (fmt.Println(err), fmt.Errorf("load: %w", err), "%v") printed its struct
// ({} or {msg}) instead of its Error(), where Go prints the message: a
// silent wrong answer in every log line about a failure. error goes between
// the two, in the order fmt itself tries them (Formatter, then error, then
// Stringer), so a type with both Error and String prints its Error as in Go.
func init() {
	formatter, errType := printWrappers[0], printWrappers[1]
	for fn, types := range stdlib.MapTypes {
		if len(types) == 0 || types[0] != formatter || slices.Contains(types, errType) {
			continue
		}
		stdlib.MapTypes[fn] = append([]reflect.Type{formatter, errType}, types[1:]...)
	}
}

// printWrappers are the interfaces, in fmt's order, a value of the block's
// own type passed to a printing function is wrapped for.
var printWrappers = []reflect.Type{
	reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
	reflect.TypeOf((*error)(nil)).Elem(),
	reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
}

// withPrintWrappers adds a "." MapTypes entry to syms for its own printing
// functions (the kernel's log.Print…, which are closures of one block
// process): yaegi wraps a block's values only for functions it has an
// entry for, and without one log.Println of a Stringer or of the block's
// own error printed their fields.
func withPrintWrappers(syms map[string]map[string]reflect.Value, pkg string, names ...string) {
	mt := map[reflect.Value][]reflect.Type{}
	for _, n := range names {
		if v, ok := syms[pkg][n]; ok {
			mt[v] = printWrappers
		}
	}
	syms["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(mt)}
}

// wrappedPrinters are the printing functions whose arguments yaegi wraps
// with printWrappers: fmt's, by stdlib.MapTypes (with error added above),
// and log's, by the kernel's own (block_process.go). fmt.Append* and the
// methods of a *log.Logger have no entry: a value passed to them arrives
// bare.
var wrappedPrinters = map[string]map[string]bool{
	"fmt": {"Errorf": true, "Fprint": true, "Fprintf": true, "Fprintln": true, "Print": true, "Printf": true,
		"Println": true, "Sprint": true, "Sprintf": true, "Sprintln": true},
	"log": {"Print": true, "Printf": true, "Println": true, "Fatal": true, "Fatalf": true, "Fatalln": true,
		"Panic": true, "Panicf": true, "Panicln": true},
}

// wrapsForPrinting reports whether fn is one of wrappedPrinters (a package
// function, not a method).
func wrapsForPrinting(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return false
	}
	return wrappedPrinters[fn.Pkg().Path()][fn.Name()]
}
