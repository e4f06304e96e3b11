package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The kernel interprets slices and maps from its own copies (overlay.go),
// whose generic functions take one type parameter per element type:
// slices.Compare[E cmp.Ordered](s1, s2 []E) where Go's is Compare[S ~[]E,
// E cmp.Ordered](s1, s2 S). A call that infers its type arguments fits
// both; one that writes them out does not: `slices.SortFunc(grid,
// slices.Compare[[]int])`, valid Go, was refused as a type error ("type
// func(s1 [][]int, s2 [][]int) int of slices.Compare[[]int] does not
// match …"; corpus adv5_binsearch_cmp). Such a block runs compiled, and
// what the type checker said against the copies is not reported: it is
// not Go's verdict.

// overlayTypeArgs reports each explicit instantiation of a function of an
// overlaid package.
func (a *analysis) overlayTypeArgs(at func(token.Pos, string, ...any)) {
	for _, f := range a.files {
		ast.Inspect(f, func(n ast.Node) bool {
			var x ast.Expr
			switch ix := n.(type) {
			case *ast.IndexExpr:
				x = ix.X
			case *ast.IndexListExpr:
				x = ix.X
			default:
				return true
			}
			sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			pn, ok := a.info.Uses[pkg].(*types.PkgName)
			if !ok {
				return true
			}
			if _, overlaid := overlays[pn.Imported().Path()]; !overlaid {
				return true
			}
			if _, fn := a.info.Uses[sel.Sel].(*types.Func); fn {
				at(n.Pos(), "explicit type arguments to %s.%s: the kernel's interpreter runs its own copy of %s, whose generic functions take one type parameter per element type ([]E rather than Go's S ~[]E), so Go's type arguments do not fit it", pkg.Name, sel.Sel.Name, pn.Imported().Path())
			}
			return true
		})
	}
}
