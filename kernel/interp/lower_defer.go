package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi keeps one slot per defer statement, so a defer inside a loop ran
// its last iteration's call once per iteration (corpus defer_order,
// closures_deferred). A function with such a defer gets a stack of its own
// instead: each of its defer statements pushes the call, with its
// arguments (and receiver) evaluated at the statement as Go does, and one
// real defer, inserted after the function's opening brace, has the kernel
// (runDefers, native Go) pop and run them last-in first-out. A pushed call
// that panics still lets the ones under it run, and the panic goes on, as
// in Go.
//
// recover only works in a function the defer mechanism calls directly, so a
// function whose deferred calls may recover keeps its "needs compiled"
// classification.

// (A runner written in the block, a closure that defers itself, looped
// forever under yaegi: the same one-slot defer.)
const deferRunner = " var strata_defers []func(); defer " + rtAlias + ".RunDefers(&strata_defers);"

// funcDefers is one function body and its own defer statements (not those
// of function literals inside it).
type funcDefers struct {
	body   *ast.BlockStmt
	defers []*ast.DeferStmt
	inLoop bool // one of them is inside a loop of this function
}

// loopDeferFuncs returns the function bodies that have a defer inside a
// loop of their own, and whether each can be lowered.
func (a *analysis) loopDeferFuncs() map[*ast.BlockStmt]bool {
	var all []*funcDefers
	var collect func(body *ast.BlockStmt)
	collect = func(body *ast.BlockStmt) {
		fd := &funcDefers{body: body}
		all = append(all, fd)
		var walk func(n ast.Node, loop bool)
		walk = func(n ast.Node, loop bool) {
			ast.Inspect(n, func(m ast.Node) bool {
				if m == n {
					return true
				}
				switch x := m.(type) {
				case *ast.FuncLit:
					collect(x.Body)
					return false
				case *ast.ForStmt:
					walk(x, true)
					return false
				case *ast.RangeStmt:
					walk(x, true)
					return false
				case *ast.DeferStmt:
					fd.defers = append(fd.defers, x)
					fd.inLoop = fd.inLoop || loop
					walk(x, loop) // function literals in its call
					return false
				}
				return true
			})
		}
		walk(body, false)
	}
	for _, d := range a.file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
			collect(fn.Body)
		}
	}
	out := map[*ast.BlockStmt]bool{}
	for _, fd := range all {
		if fd.inLoop {
			out[fd.body] = a.canLowerDefers(fd)
		}
	}
	return out
}

func (a *analysis) canLowerDefers(fd *funcDefers) bool {
	for _, d := range fd.defers {
		if lit, ok := d.Call.Fun.(*ast.FuncLit); ok {
			if len(d.Call.Args) > 0 || a.callsRecover(lit.Body) {
				return false
			}
			continue
		}
		if a.mayRecover(d.Call) {
			return false
		}
		if _, ok := a.wrapDeferCall(d.Call); !ok {
			return false
		}
	}
	return true
}

// callsRecover reports whether n calls the builtin recover.
func (a *analysis) callsRecover(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && id.Name == "recover" {
			if b, ok := a.info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
				found = true
			}
		}
		return !found
	})
	return found
}

// mayRecover reports whether a deferred call can reach recover directly:
// the builtin itself, or a function or method the block declares that
// calls it. Other packages' functions do not recover a block's panic.
func (a *analysis) mayRecover(call *ast.CallExpr) bool {
	var obj types.Object
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		obj = a.info.Uses[f]
	case *ast.SelectorExpr:
		if sel := a.info.Selections[f]; sel != nil {
			obj = sel.Obj()
		} else {
			obj = a.info.Uses[f.Sel]
		}
	default:
		return true // a call of a computed function: it could be anything
	}
	if b, ok := obj.(*types.Builtin); ok {
		return b.Name() == "recover"
	}
	if obj == nil || obj.Pkg() == nil {
		return true
	}
	if obj.Pkg() != a.pkg {
		return false
	}
	if _, isFunc := obj.(*types.Func); !isFunc {
		return true // a func-typed variable of the block
	}
	for _, f := range a.files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && a.info.Defs[fn.Name] == obj {
				return a.callsRecover(fn.Body)
			}
		}
	}
	return true
}

// lowerLoopDefers returns the edits for the lowerable functions of bodies
// and the set of defer statements they cover (which the plain defer
// rewrite must then leave alone).
// bound are the method values bindMethodValues binds (a deferred method
// call without arguments among them: its receiver is then already bound,
// and the method value itself is pushed).
func (a *analysis) lowerLoopDefers(src string, off func(token.Pos) int, bound map[*ast.SelectorExpr]bool) ([]edit, map[*ast.DeferStmt]bool) {
	covered := map[*ast.DeferStmt]bool{}
	var edits []edit
	for body, ok := range a.loopDeferFuncs() {
		if !ok {
			continue
		}
		edits = append(edits, edit{off: off(body.Lbrace) + 1, text: deferRunner})
		ast.Inspect(body, func(m ast.Node) bool {
			switch x := m.(type) {
			case *ast.FuncLit:
				return false // its own function (lowered on its own if it needs it)
			case *ast.DeferStmt:
				covered[x] = true
				push := "strata_defers = append(strata_defers, "
				if se, ok := ast.Unparen(x.Call.Fun).(*ast.SelectorExpr); ok && bound[se] && len(x.Call.Args) == 0 {
					// defer v.M()  ->  strata_defers = append(strata_defers, <v.M bound now>)
					edits = append(edits,
						edit{off: off(x.Defer), del: len("defer"), text: strings.TrimSuffix(push, " ")},
						edit{off: off(x.Call.Lparen), del: off(x.Call.Rparen) + 1 - off(x.Call.Lparen), text: ")"})
					return true
				}
				if _, isLit := x.Call.Fun.(*ast.FuncLit); isLit {
					// defer func() {…}()  ->  strata_defers = append(strata_defers, func() {…})
					// The literal is made by an inner call: yaegi calls a literal
					// made in place over the loop's live frame, and the second
					// call from the defer stack never returned.
					edits = append(edits,
						edit{off: off(x.Defer), del: len("defer"), text: push + "func() func() { return"},
						edit{off: off(x.Call.Lparen), del: off(x.Call.Rparen) + 1 - off(x.Call.Lparen), text: " }())"})
					return true
				}
				wrapped, _ := a.wrapDeferCall(x.Call)
				w := strings.TrimSuffix(wrapped(func(e ast.Expr) string { return src[off(e.Pos()):off(e.End())] }), "()")
				edits = append(edits, edit{off: off(x.Defer), del: off(x.Call.End()) - off(x.Defer), text: push + w + ")"})
				return false
			}
			return true
		})
	}
	return edits, covered
}
