package interp

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16 gets a method's frame wrong when its parameters have no
// names: calling `func (s static) Serve(*Request) string` failed at run
// time with "reflect.Set: value of type *struct{…} is not assignable to
// type string", at no line of the block (corpus adv5_handler_func, an
// http.Handler-style static handler). The same method with its parameters
// named `_` runs right, and so do functions and function literals without
// names. The kernel names each unnamed parameter of a method `_`, in front
// of its type, on the same line: Go gives such a parameter no name either.

// unnamedMethodParams returns the insertions that name a method's unnamed
// parameters.
func (a *analysis) unnamedMethodParams(off func(token.Pos) int) []edit {
	var out []edit
	for _, d := range a.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || fd.Type.Params == nil {
			continue
		}
		for _, field := range fd.Type.Params.List {
			if len(field.Names) > 0 {
				break // Go names all parameters or none
			}
			out = append(out, edit{off: off(field.Type.Pos()), text: "_ "})
		}
	}
	return out
}
