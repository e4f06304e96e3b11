package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// nestedOwnIfacePrints reports each value handed to fmt's or log's
// printing functions whose type holds, inside a slice, array, map, struct
// or pointer, an interface with methods the block declares ([]Shape,
// map[string]Shape, a struct with a Shape field). yaegi keeps the values
// in such an interface as its own wrappers, and fmt printed those:
// [{0xc… {0xc… 0xc… 409}}] for [{1 2}] (corpus adv4_print_nested_iface). A
// value of the interface itself prints right, and is left to the
// interpreter.
func (a *analysis) nestedOwnIfacePrints(at func(token.Pos, string, ...any)) {
	if a.pkg == nil {
		return
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !a.nativeCallee(call) {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil || !printing(fn) {
			return true
		}
		for _, arg := range call.Args {
			t := a.info.TypeOf(arg)
			if t == nil {
				continue
			}
			if it := a.nestedOwnIface(t, map[types.Type]bool{}, true); it != nil {
				at(arg.Pos(), "a %s holding the interface %s the block declares, printed: the kernel's interpreter (yaegi) keeps the values in such an interface as its own wrappers, and fmt would print those ({0xc… {…}}) instead of the values", typeKindWord(t), it.Obj().Name())
				return true
			}
		}
		return true
	})
}

// nestedOwnIface returns an interface with methods declared by the block
// that t holds below its top level, or nil.
func (a *analysis) nestedOwnIface(t types.Type, seen map[types.Type]bool, top bool) *types.Named {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == a.pkg {
		if it, ok := n.Underlying().(*types.Interface); ok {
			if !top && it.NumMethods() > 0 {
				return n
			}
			return nil
		}
	}
	for _, c := range componentTypes(t) {
		if n := a.nestedOwnIface(c, seen, false); n != nil {
			return n
		}
	}
	return nil
}

// ownIfaceIntoAny reports each place a value of an interface with methods
// that the block declares is stored into an empty interface (var a any =
// s, []any{s}, a call of the block's func(v any)), outside fmt's and log's
// functions, which unwrap it. yaegi keeps yaegi's wrapper of the value
// inside the any, and fmt printed the wrapper ({0xc… {…}} for {2 2};
// corpus adv4_own_iface_into_any).
func (a *analysis) ownIfaceIntoAny(at func(token.Pos, string, ...any)) {
	if a.pkg == nil {
		return
	}
	a.ifaceAssignments(a.file, true, true, func(e ast.Expr, dst types.Type, _ bool, native *types.Func) {
		if native != nil && printing(native) {
			return
		}
		it, ok := dst.Underlying().(*types.Interface)
		if !ok || it.NumMethods() > 0 {
			return
		}
		n, ok := a.info.TypeOf(e).(*types.Named)
		if !ok || n.Obj().Pkg() != a.pkg {
			return
		}
		if src, ok := n.Underlying().(*types.Interface); ok && src.NumMethods() > 0 {
			at(e.Pos(), "a value of the interface %s the block declares made an empty interface (%s): the kernel's interpreter (yaegi) keeps its own wrapper of the value inside, so printing it would show {0xc… {…}} instead of the value", n.Obj().Name(), types.TypeString(dst, a.qualifier()))
		}
	})
}
