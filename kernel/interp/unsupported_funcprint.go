package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// funcPrints finds function values handed to fmt's or log's printing (also
// inside a struct, slice, array, map or pointer printed): fmt prints a
// function as its code address, and yaegi v0.16 hands every function of
// the block to native code as one reflect.MakeFunc stub, so every function
// printed at one address and fmt.Sprint(f) == fmt.Sprint(g) was true for
// different functions. Which function a wrapper stands for is yaegi's
// secret, so such a block runs compiled.
func (a *analysis) funcPrints(at func(token.Pos, string, ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil || !printsValues(fn) {
			return true
		}
		sig := fn.Type().(*types.Signature)
		first := sig.Params().Len() - 1 // the ...any values
		format, fargs, isPrintf := a.printfFormat(call)
		vs, known := verbs(format)
		for i := first; i < len(call.Args); i++ {
			t := a.info.TypeOf(call.Args[i])
			if t == nil || !holdsFunc(t, map[types.Type]bool{}) {
				continue
			}
			if k := i - (len(call.Args) - len(fargs)); isPrintf && known && k >= 0 && k < len(vs) && vs[k] == "T" {
				continue // %T prints the type, not the address
			}
			what := "a function value"
			if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
				what = "a value holding a function (" + types.TypeString(t, a.qualifier()) + ")"
			}
			at(call.Args[i].Pos(), "%s printed by %s.%s: fmt prints a function as its address, and the kernel's interpreter (yaegi) hands every function to fmt as one wrapper, so different functions would print the same address", what, fn.Pkg().Name(), fn.Name())
		}
		return true
	})
}

// printsValues reports whether fn is one of fmt's or log's functions (or
// a *log.Logger method) that print their ...any values.
func printsValues(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "fmt", "log":
	default:
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || !sig.Variadic() {
		return false
	}
	name := fn.Name()
	for _, p := range []string{"Print", "Sprint", "Fprint", "Append", "Errorf", "Fatal", "Panic", "Output"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// holdsFunc reports whether fmt would reach a function value printing a
// value of type t.
func holdsFunc(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Pointer:
		return holdsFunc(u.Elem(), seen)
	case *types.Slice:
		return holdsFunc(u.Elem(), seen)
	case *types.Array:
		return holdsFunc(u.Elem(), seen)
	case *types.Map:
		return holdsFunc(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsFunc(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}
