package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi evaluates the arguments of `go f(args)` late: an argument that is
// not a plain variable (readies[i], slow(i)) is read from the caller's
// frame after the goroutine started, when a loop may have moved on, so
// the goroutine gets another iteration's value, or a call argument panics
// with "call of nil function". Plain variables are copied at the
// statement. So the arguments are evaluated by an ordinary call in the
// caller, whose parameters the go statement then passes on:
//
//	go func(a A, b B) { … }(x, y[i])
//	->  func(strata_g0 A, strata_g1 B) { go func(a A, b B) { … }(strata_g0, strata_g1) }(x, y[i])
//
// The edit stays on the line and leaves the argument text in place.

// goArgsInCaller is that rewrite for a go statement calling a function
// literal; nil when every argument is already a variable or a constant, or
// when a parameter's type cannot be written in the block's terms.
func (a *analysis) goArgsInCaller(g *ast.GoStmt, lit *ast.FuncLit, off func(token.Pos) int) []edit {
	call := g.Call
	if len(call.Args) == 0 || call.Ellipsis.IsValid() || !needsEarlyArgs(call.Args) {
		return nil
	}
	sig, ok := a.info.Types[lit].Type.(*types.Signature)
	if !ok || sig.Variadic() || sig.Params().Len() != len(call.Args) {
		return nil
	}
	qual := a.qualifier()
	params := make([]string, len(call.Args))
	names := make([]string, len(call.Args))
	for i := range call.Args {
		ts := types.TypeString(sig.Params().At(i).Type(), qual)
		if strings.Contains(ts, "invalid type") || typeNeedsMissingImport(ts) {
			return nil
		}
		names[i] = fmt.Sprintf("strata_g%d", i)
		params[i] = names[i] + " " + ts
	}
	return []edit{
		{off: off(g.Pos()), del: off(call.Pos()) - off(g.Pos()), text: "func(" + strings.Join(params, ", ") + ") { go "},
		{off: off(call.Lparen), text: "(" + strings.Join(names, ", ") + ") }"},
	}
}

// goLitSnapshot is `go func() { … }()` in a loop, started from an
// ordinary call in the caller: `func() { go func() { … }() }()`. yaegi
// starts the goroutine's closure over the caller's live frame, and the
// loop's next iteration replaces the variables of the frame (Go 1.22: one
// per iteration) before a slow goroutine has read them: it then read the
// next iteration's `name` (13 of 300 runs summed 300 goroutines' values
// wrongly). A closure made inside a called function is over a snapshot of
// the frame, whose per-iteration variables are this iteration's, and whose
// shared ones are still shared. goArgsInCaller's rewrite is such a call
// already. (What replaces the closure is most likely yaegi's write-back
// into the literal's slot of the loop's frame when an earlier iteration's
// goroutine returns: see lower_loop_closures.go, which does the same for
// literals that are not called where they stand.)
func (a *analysis) goLitSnapshot(g *ast.GoStmt, off func(token.Pos) int) []edit {
	if !a.inLoop(g) {
		return nil
	}
	return []edit{{off: off(g.Pos()), text: "func() { "}, {off: off(g.Call.End()), text: " }()"}}
}

// inCaller is `go c` with its arguments evaluated in the caller:
// `func(P) { go func(P) { body }(names) }(args)`.
func (c goCall) inCaller() string {
	if c.names == "" {
		return "go " + c.String()
	}
	return fmt.Sprintf("func(%s) { go func(%s) { %s }(%s) }(%s)", c.params, c.params, c.body, c.names, c.args)
}

// needsEarlyArgs reports whether an argument is more than a variable or a
// constant (which yaegi already takes at the statement).
func needsEarlyArgs(args []ast.Expr) bool {
	for _, arg := range args {
		switch ast.Unparen(arg).(type) {
		case *ast.Ident, *ast.BasicLit:
		default:
			return true
		}
	}
	return false
}
