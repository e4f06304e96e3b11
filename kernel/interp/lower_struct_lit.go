package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// yaegi v0.16 compiles `x = T{…}`, a struct literal assigned to a name, by
// building the struct and putting it in x's frame slot in place of the
// value that was there (doComposite: data[i] = a, where every other
// assignment sets the value in place). Whatever still holds the old value
// keeps it: a pointer taken before (p := &x), a closure that captured x,
// and the caller's slot a named result writes to. The assignment is lost
// for all of them: `func parse() (start point) { start = point{r, c};
// return }` returned {0 0}, and *p printed the old value (corpus
// adv7_named_struct_results). A parenthesized literal is not a bare
// composite literal node, so yaegi assigns it the ordinary way: `x = T{…}`
// becomes `x = (T{…})`, on the same line (operatorParens makes the edit).
// Arrays, slices and maps are set in place already; fields, elements and
// *p are assigned the ordinary way too.

// structLitAssigns returns the struct literals that plain assignments give
// to a name (x = T{…}, one value to one name; several values are
// parenthesized anyway, see operatorParens).
func (a *analysis) structLitAssigns() []ast.Expr {
	var out []ast.Expr
	ast.Inspect(a.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		if id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); !ok || id.Name == "_" {
			return true
		}
		lit, ok := as.Rhs[0].(*ast.CompositeLit)
		if !ok {
			return true
		}
		if _, isStruct := under(a.info.TypeOf(lit)).(*types.Struct); isStruct {
			out = append(out, lit)
		}
		return true
	})
	return out
}
