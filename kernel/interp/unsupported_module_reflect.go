package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// moduleReflection reports a value of a type the block declares passed as
// an interface to a function or method of a third-party module (in a
// project kernel): the module's compiled code may read it by reflection,
// and yaegi's types carry no name and no methods there. parquet.SchemaOf
// of a block's struct printed "message {" where go run printed "message
// Order {", and an error naming the type would lose it too. The standard
// library's reflective packages have finer checks of their own; a module
// cannot be told apart, so any such call runs compiled.
func (a *analysis) moduleReflection(report func(pos token.Pos, format string, args ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg() == a.pkg || !IsModuleImport(fn.Pkg().Path()) {
			return true
		}
		sig, ok := fn.Type().(*types.Signature)
		if !ok {
			return true
		}
		for i, arg := range call.Args {
			pt := paramType(sig, i, call.Ellipsis.IsValid())
			if pt == nil || !types.IsInterface(pt) {
				continue
			}
			if named := a.holdsBlockType(a.info.TypeOf(arg), 0); named != "" {
				report(arg.Pos(), "a value of %s, a type the block declares, passed to %s.%s of module package %s: its compiled code may read the value by reflection, and the interpreter's types carry neither their name nor their methods there", named, fn.Pkg().Name(), fn.Name(), fn.Pkg().Path())
				return true
			}
		}
		return true
	})
}

// paramType is the type the i-th argument is passed as.
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		last := sig.Params().At(n - 1).Type()
		if spread {
			return last
		}
		if s, ok := last.(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i).Type()
}

// holdsBlockType names the block-declared type t is or holds (through
// pointers, slices, arrays, maps and channels), or "".
func (a *analysis) holdsBlockType(t types.Type, depth int) string {
	if t == nil || depth > 8 {
		return ""
	}
	if named, ok := t.(*types.Named); ok && named.Obj().Pkg() == a.pkg {
		return named.Obj().Name()
	}
	switch u := t.(type) {
	case *types.Pointer:
		return a.holdsBlockType(u.Elem(), depth+1)
	case *types.Slice:
		return a.holdsBlockType(u.Elem(), depth+1)
	case *types.Array:
		return a.holdsBlockType(u.Elem(), depth+1)
	case *types.Map:
		if s := a.holdsBlockType(u.Key(), depth+1); s != "" {
			return s
		}
		return a.holdsBlockType(u.Elem(), depth+1)
	case *types.Chan:
		return a.holdsBlockType(u.Elem(), depth+1)
	}
	return ""
}
