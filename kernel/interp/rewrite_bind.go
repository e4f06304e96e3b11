package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Go evaluates a method value's receiver when the value is made: after
// `f := v.Get; v.n = 2`, f() still sees the old v (a copy for a value
// receiver, the pointer of that moment for a pointer receiver, the
// interface's dynamic value of that moment). yaegi reads the receiver when
// f runs, a silent wrong answer. bindMethodValues rewrites every method
// value that is not called on the spot into
//
//	func() SIG { strata_r := RECV; return strata_r.M }()
//
// where RECV is the receiver Go would have evaluated: strata_r is never
// assigned again, so late reading is harmless. The edit stays on the line.
// bound collects the selectors it binds.
func (a *analysis) bindMethodValues(src string, off func(token.Pos) int, bound map[*ast.SelectorExpr]bool) []edit {
	// A deferred method call without arguments binds its receiver at the
	// defer statement too (`defer v.Show()` after which v changes): it is
	// bound like a method value. With arguments, wrapDeferCall replaces
	// the whole call, and the receiver is still read late (see doc.go).
	called := map[ast.Expr]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			called[ast.Unparen(c.Fun)] = true
		}
		return true
	})
	ast.Inspect(a.file, func(n ast.Node) bool {
		if d, ok := n.(*ast.DeferStmt); ok && len(d.Call.Args) == 0 {
			delete(called, ast.Unparen(d.Call.Fun))
		}
		return true
	})
	qual := a.qualifier()
	var edits []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok || called[se] {
			return true
		}
		sel := a.info.Selections[se]
		if sel == nil || sel.Kind() != types.MethodVal {
			return true
		}
		if !a.bindable(sel) {
			return true
		}
		tv, ok := a.info.Types[se]
		if !ok || tv.Type == nil {
			return true
		}
		sig := types.TypeString(tv.Type, qual)
		if strings.Contains(sig, "invalid type") || typeNeedsMissingImport(sig) {
			return true
		}
		// The tail ".M" is replaced; one that spans lines is left alone.
		if tail := src[off(se.X.End()):off(se.End())]; strings.Contains(tail, "\n") {
			return true
		}
		recv, ok := a.receiverText(sel)
		if !ok {
			return true
		}
		bound[se] = true
		edits = append(edits,
			edit{off: off(se.Pos()), text: "func() " + sig + " { strata_r := " + recv.prefix},
			edit{off: off(se.X.End()), del: off(se.End()) - off(se.X.End()), text: recv.path + "; return strata_r." + se.Sel.Name + " }()"})
		return true
	})
	return edits
}

// bindable reports whether a method value's receiver can be bound early:
// only the block's own methods and interface methods, since yaegi cannot
// return a native type's method value (`return wg.Done`).
func (a *analysis) bindable(sel *types.Selection) bool {
	fn, ok := sel.Obj().(*types.Func)
	return ok && (fn.Pkg() == a.pkg || types.IsInterface(sel.Recv()))
}

// recvText is the receiver a method value binds, written as a "*" or "&"
// before the operand and the embedded fields after it, and its type.
type recvText struct {
	prefix, path string
	typ          types.Type
}

// receiverText is how to write the receiver a method value binds.
func (a *analysis) receiverText(sel *types.Selection) (recvText, bool) {
	fn, ok := sel.Obj().(*types.Func)
	if !ok {
		return recvText{}, false
	}
	t := sel.Recv()
	idx := sel.Index()
	var path strings.Builder
	for _, i := range idx[:len(idx)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return recvText{}, false
		}
		f := st.Field(i)
		fmt.Fprintf(&path, ".%s", f.Name())
		t = f.Type()
	}
	if types.IsInterface(t) {
		return recvText{path: path.String(), typ: t}, true
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return recvText{}, false
	}
	_, wantPtr := recv.Type().Underlying().(*types.Pointer)
	if types.IsInterface(recv.Type()) {
		return recvText{path: path.String(), typ: t}, true
	}
	switch {
	case wantPtr && !isPtr:
		return recvText{prefix: "&", path: path.String(), typ: types.NewPointer(t)}, true
	case !wantPtr && isPtr:
		return recvText{prefix: "*", path: path.String(), typ: deref(t)}, true
	}
	return recvText{path: path.String(), typ: t}, true
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
