package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi v0.16 cannot build a type that reaches itself through a function
// type. Rob Pike's lexer, `type stateFn func(*lexer) stateFn`, failed to
// compile with "reflect.Type is nil" at no line (corpus
// adv5_lexer_statefn); `type Hook func(*Bus)` with `type Bus struct{ hooks
// []Hook }` failed at run time ("reflect: Call using *struct {…} as type
// *unsafe2.dummy"); and `type G func() []G` or `type M map[string]func() M`
// overflowed the interpreter's stack, a fatal error that killed the kernel
// (corpus adv5_recursive_func_types). Such a type is refused at its
// declaration and the block runs compiled. Interfaces whose methods mention
// them (type Visitor interface{ Visit(Node) Visitor }) run right and are
// not followed.

// recursiveFuncTypes reports each type the block declares that reaches
// itself through a function type.
func (a *analysis) recursiveFuncTypes(at func(token.Pos, string, ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		tn, ok := a.info.Defs[ts.Name].(*types.TypeName)
		if !ok || tn.IsAlias() {
			return true
		}
		start, ok := tn.Type().(*types.Named)
		if ok && a.reachesThroughFunc(start.Underlying(), start, false, map[*types.Named]bool{}) {
			at(ts.Name.Pos(), "type %s refers to itself through a function type: the kernel's interpreter (yaegi) cannot build such a type (it fails to compile the block or to call the function, or overflows its stack and kills the kernel)", ts.Name.Name)
		}
		return true
	})
}

// reachesThroughFunc reports whether t leads to start with a function
// type on the way (inFunc: one has been passed already), following the
// block's own named types.
func (a *analysis) reachesThroughFunc(t types.Type, start *types.Named, inFunc bool, seen map[*types.Named]bool) bool {
	switch t := t.(type) {
	case *types.Named:
		if t.Origin() == start {
			return inFunc
		}
		if t.Obj().Pkg() != a.pkg || seen[t.Origin()] {
			return false
		}
		seen[t.Origin()] = true
		return a.reachesThroughFunc(t.Underlying(), start, inFunc, seen)
	case *types.Pointer:
		return a.reachesThroughFunc(t.Elem(), start, inFunc, seen)
	case *types.Slice:
		return a.reachesThroughFunc(t.Elem(), start, inFunc, seen)
	case *types.Array:
		return a.reachesThroughFunc(t.Elem(), start, inFunc, seen)
	case *types.Chan:
		return a.reachesThroughFunc(t.Elem(), start, inFunc, seen)
	case *types.Map:
		return a.reachesThroughFunc(t.Key(), start, inFunc, seen) || a.reachesThroughFunc(t.Elem(), start, inFunc, seen)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if a.reachesThroughFunc(t.Field(i).Type(), start, inFunc, seen) {
				return true
			}
		}
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if a.reachesThroughFunc(tup.At(i).Type(), start, true, seen) {
					return true
				}
			}
		}
	}
	return false
}
