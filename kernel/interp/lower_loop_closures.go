package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi v0.16 keeps the closure a function literal makes in a slot of the
// frame that evaluates the literal, and the closure, each time it returns,
// writes back into that slot whatever the slot held before the closure was
// made (getFunc in yaegi's run.go). In a loop the slot is shared by every
// iteration: when a closure made in an earlier iteration returns after the
// literal was evaluated again but before the new closure was read (passed,
// assigned), the statement reads the closure of two iterations back (its
// variables), or none ("call of nil function"). A closure run by another
// goroutine returns at any moment: corpus adv5_errgroup_wg, whose loop
// hands `func() error { … seen[w]++ … }` to the block's own g2.Go (which
// starts a goroutine), printed map[a:4 …] or failed with "call of nil
// function" about once in 200 runs, more often on a loaded machine; in one
// goroutine it is deterministic (TestLoopClosureNotReplacedByAnEarlierOne).
//
// A literal in a loop whose closure outlives its statement is therefore
// made by a call of its own, whose fresh frame holds the slot:
//
//	g.Go(func() error { … })  ->  g.Go(func() func() error { return func() error { … } }())
//
// The wrapper's own slot is in the loop's frame, but the wrapper is called
// at once and returns in the same goroutine, before anything else reads
// that slot. A literal called where it stands (`func() { … }()`, go and
// defer statements) never needs it; goLitSnapshot already moves `go
// func() { … }()` in a loop into a call of its own for the same reason.
//
// The edits replace the literal's `func` keyword and its closing brace,
// so another lowering's insertions at the literal's ends stay outside the
// wrapper and its insertions inside the body stay inside.

// loopFuncLits returns those edits. others are every other edit of the
// rewrite: a literal that one of their replacements touches is left (the
// texts would overlap), as is one whose type cannot be written in the
// block's terms; either keeps yaegi's behaviour.
func (a *analysis) loopFuncLits(others []edit, off func(token.Pos) int) []edit {
	called := map[*ast.FuncLit]bool{}
	nativeArg := map[*ast.FuncLit]bool{} // already wrapped (rewriteWith)
	ast.Inspect(a.file, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
				called[lit] = true
			}
			if a.nativeCallee(call) {
				for _, arg := range call.Args {
					if lit, ok := arg.(*ast.FuncLit); ok {
						nativeArg[lit] = true
					}
				}
			}
		}
		return true
	})
	named := a.qualifier()
	qual := func(p *types.Package) string {
		if n := named(p); n != "." && n != "_" {
			return n
		}
		return "\x00missing" // dot-imported: no name to write
	}
	var out []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok || called[lit] || nativeArg[lit] || !a.inLoop(lit) {
			return true
		}
		sig, ok := a.info.TypeOf(lit).(*types.Signature)
		if !ok {
			return true
		}
		ts := types.TypeString(sig, qual)
		if strings.Contains(ts, "invalid type") || typeNeedsMissingImport(ts) {
			return true
		}
		p, e := off(lit.Pos()), off(lit.End())
		if clashes(p, e, others) || replacedAt(p, len("func"), others) || replacedAt(e-1, 1, others) {
			return true
		}
		out = append(out,
			edit{off: p, del: len("func"), text: "func() " + ts + " { return func"},
			edit{off: e - 1, del: 1, text: "} }()"})
		return true
	})
	return out
}

// replacedAt reports whether another edit replaces text in [p, p+n).
func replacedAt(p, n int, others []edit) bool {
	for _, o := range others {
		if o.del > 0 && o.off < p+n && o.off+o.del > p {
			return true
		}
	}
	return false
}
