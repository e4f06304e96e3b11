package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi v0.16 passes a call's result of an interface type the block
// declares, given straight as another call's argument, so that a type
// assertion in the callee to one of the block's types fails: with
// `func describe(g geom) string { if c, ok := g.(circle); ok { … } }`,
// describe(mk()) said "not a circle" where Go says a circle. The kernel's
// own copy of a value becoming an interface (ifaceCopies) is such a call,
// so describe(circle{3}) failed the same way. A value in a variable, an
// element or a field passes correctly, and so does an explicit conversion
// to the interface type: each such argument becomes geom(…).

// ifaceArgConv maps the call arguments that need the conversion to the
// interface type's text: arguments of a function the block calls (its own
// functions, methods, function values, literals) whose parameter is an
// interface the block declares with methods, given as a call or as a value
// ifaceCopies wraps (a value of the block's type with methods).
func (a *analysis) ifaceArgConv() map[ast.Expr]string {
	if a.pkg == nil {
		return nil
	}
	out := map[ast.Expr]string{}
	qual := a.qualifier()
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if tv, ok := a.info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
			return true // a conversion or a builtin
		}
		if se, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := se.X.(*ast.Ident); ok {
				if _, isPkg := a.info.Uses[id].(*types.PkgName); isPkg {
					return true // a native package's function
				}
			}
		}
		sig, ok := a.info.TypeOf(call.Fun).Underlying().(*types.Signature)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		for i, arg := range call.Args {
			var param types.Type
			switch {
			case sig.Variadic() && i >= sig.Params().Len()-1:
				param = sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
			case i < sig.Params().Len():
				param = sig.Params().At(i).Type()
			default:
				continue
			}
			n, own := param.(*types.Named)
			if !own || n.Obj().Pkg() != a.pkg {
				continue
			}
			it, isIface := n.Underlying().(*types.Interface)
			if !isIface || it.NumMethods() == 0 {
				continue
			}
			at := a.info.TypeOf(arg)
			if at == nil {
				continue
			}
			_, argCall := ast.Unparen(arg).(*ast.CallExpr)
			if types.IsInterface(at) && !argCall {
				continue // a variable, an element, a field: passed as Go does
			}
			if !types.IsInterface(at) {
				if an, own := a.ownNamed(at); !own || !hasMethods(an) {
					continue // not one ifaceCopies wraps: passed as Go does
				}
			}
			ts := types.TypeString(n, qual)
			if typeNeedsMissingImport(ts) {
				continue
			}
			out[arg] = ts
		}
		return true
	})
	return out
}

// ifaceArgEdits converts the arguments of conv that are calls already
// (ifaceCopyEdits converts the values it wraps), unless another edit's
// replacement cuts across them.
func ifaceArgEdits(conv map[ast.Expr]string, wrapped map[ast.Expr]bool, others []edit, off func(token.Pos) int) []edit {
	var out []edit
	for e, ts := range conv {
		if wrapped[e] {
			continue
		}
		if _, isCall := ast.Unparen(e).(*ast.CallExpr); !isCall {
			continue
		}
		p, end := off(e.Pos()), off(e.End())
		if clashes(p, end, others) {
			continue
		}
		out = append(out, edit{off: p, text: ts + "("}, edit{off: end, text: ")"})
	}
	return out
}

// clashes reports whether another edit's replacement cuts across [p, e):
// text inserted inside a span that another edit replaces would be lost or
// misplaced.
func clashes(p, e int, others []edit) bool {
	for _, o := range others {
		if o.del == 0 {
			continue
		}
		inside := p <= o.off && o.off+o.del <= e
		if o.off < e && o.off+o.del > p && !inside {
			return true
		}
	}
	return false
}
