package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// nativeVariadicIfaces reports a value of a block-declared type passed in
// the variadic part of a standard-library function whose variadic
// parameter is an interface with methods (io.MultiWriter(w ...io.Writer),
// io.MultiReader): yaegi builds the []io.Writer by reflection from its own
// struct type, which does not implement the interface for reflect, and the
// run fails with "reflect: cannot use struct {…} as type io.Writer in Call",
// after part of the block ran and at no line.
func (a *analysis) nativeVariadicIfaces(report func(pos token.Pos, format string, args ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !a.nativeCallee(call) || call.Ellipsis.IsValid() {
			return true
		}
		fn := a.callee(call)
		sig, ok := fn.Type().(*types.Signature)
		if !ok || !sig.Variadic() {
			return true
		}
		last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
		iface, ok := last.Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 {
			return true
		}
		for _, arg := range call.Args[sig.Params().Len()-1:] {
			if a.blockType(a.info.TypeOf(arg)) {
				report(arg.Pos(), "a value of the block's own type passed to %s.%s's variadic %s: the kernel's interpreter (yaegi) cannot convert it by reflection and fails at run time", fn.Pkg().Name(), fn.Name(), types.TypeString(last, a.qualifier()))
				return true
			}
		}
		return true
	})
}

// blockType reports whether t is (a pointer to) a named type the block
// declares.
func (a *analysis) blockType(t types.Type) bool {
	if t == nil {
		return false
	}
	named, ok := deref(t).(*types.Named)
	return ok && named.Obj().Pkg() == a.pkg
}
