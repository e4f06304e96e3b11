package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi wraps a value of the block's own type in a wrapper with its
// methods only where it is itself the argument of a native function; a
// value inside a slice, array, map, struct or `any` reaches fmt as yaegi's
// plain struct. So `fmt.Println([]Level{0, 1})` printed [0 1] instead of
// [lo hi], a struct field of a Stringer type printed its fields, and an
// `[]any{t}` printed yaegi's internal pointers. These calls run compiled.

// fmtPrinters are the printing functions (and *log.Logger methods) whose
// arguments fmt formats.
var fmtPrinters = map[string]map[string]bool{
	"fmt": {"Print": true, "Println": true, "Printf": true, "Sprint": true, "Sprintln": true, "Sprintf": true,
		"Fprint": true, "Fprintln": true, "Fprintf": true, "Errorf": true, "Append": true, "Appendln": true, "Appendf": true},
	"log": {"Print": true, "Println": true, "Printf": true, "Fatal": true, "Fatalln": true, "Fatalf": true,
		"Panic": true, "Panicln": true, "Panicf": true},
}

// fmtMethods are the methods fmt looks for.
var fmtMethods = []string{"String", "Error", "Format", "GoString"}

func (a *analysis) nestedFmtValues(report func(pos token.Pos, format string, args ...any)) {
	if a.pkg == nil {
		return
	}
	declares := a.declaresFmtType()
	if !declares {
		return
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil || !fmtPrinters[fn.Pkg().Path()][fn.Name()] {
			return true
		}
		for _, arg := range call.Args {
			t := a.info.TypeOf(arg)
			if t == nil {
				continue
			}
			if inner, ok := a.nestsFmtType(t, true, map[types.Type]bool{}); ok {
				what := "a " + inner
				if inner == "" {
					what = "an interface that may hold one of the block's types with a String or Error method"
				}
				report(arg.Pos(), "%s printed by %s.%s holds %s: the kernel's interpreter (yaegi) hands values inside slices, maps, structs and `any` to fmt without their methods, so it would print their fields instead of what String or Error returns",
					types.ExprString(arg), fn.Pkg().Name(), fn.Name(), what)
				return true
			}
		}
		return true
	})
}

// declaresFmtType reports whether the block declares a type with one of
// the methods fmt calls.
func (a *analysis) declaresFmtType() bool {
	scope := a.pkg.Scope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok {
			if named, ok := tn.Type().(*types.Named); ok && hasFmtMethod(named) {
				return true
			}
		}
	}
	return false
}

func hasFmtMethod(n *types.Named) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, m := range fmtMethods {
		if ms.Lookup(n.Obj().Pkg(), m) != nil {
			return true
		}
	}
	return false
}

// nestsFmtType reports whether a value of type t holds, below its top
// level, a value of the block's own type with a fmt method, or an
// empty interface (which may hold one): it returns that type's name ("" for
// the interface).
func (a *analysis) nestsFmtType(t types.Type, top bool, seen map[types.Type]bool) (string, bool) {
	if seen[t] {
		return "", false
	}
	seen[t] = true
	if named, ok := t.(*types.Named); ok && named.Obj().Pkg() == a.pkg {
		if !top && hasFmtMethod(named) {
			return named.Obj().Name(), true
		}
		if top && hasFmtMethod(named) {
			return "", false // printed through its method, as in Go
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if top {
			return a.nestsFmtType(u.Elem(), true, seen)
		}
		if named, ok := u.Elem().(*types.Named); ok && named.Obj().Pkg() == a.pkg && hasFmtMethod(named) {
			return "*" + named.Obj().Name(), true
		}
	case *types.Slice:
		return a.nestsFmtType(u.Elem(), false, seen)
	case *types.Array:
		return a.nestsFmtType(u.Elem(), false, seen)
	case *types.Map:
		if s, ok := a.nestsFmtType(u.Key(), false, seen); ok {
			return s, true
		}
		return a.nestsFmtType(u.Elem(), false, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if s, ok := a.nestsFmtType(u.Field(i).Type(), false, seen); ok {
				return s, true
			}
		}
	case *types.Interface:
		if !top && u.NumMethods() == 0 {
			return "", true
		}
	}
	return "", false
}
