package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"sort"
)

// Go initializes package variables in dependency order, following what
// their initializers use through the functions they call (types.Info's
// InitOrder). yaegi v0.16 has an order of its own (genGlobalVarDecl): in
// passes over the declarations, each runs once every package variable its
// text names (by name, so also a field key or a local that has one's name;
// `_` named the last `_` declared, until blankPkgVars named each) has run. The two differ, and
// it shows when initializers call functions with effects: in corpus
// adv5_init_order `var total = sum(prices) + tax` ran after a later
// `greeter = makeGreeter(…)` (Go runs it first), and two `var _ =
// Register(…)` ran in reverse. The kernel computes yaegi's order, over the
// declarations as lower_pkgvars.go leaves them, and routes the block to
// compiled mode when it is not Go's and an initializer calls something.

// initOrderDiffers reports the first package variable yaegi would
// initialize out of Go's order, when it is in the analysis's file (each
// file of the package is checked in its own view).
func (a *analysis) initOrderDiffers(at func(token.Pos, string, ...any)) {
	if a.info == nil || a.pkg == nil {
		return
	}
	calls := false
	for _, init := range a.info.InitOrder {
		calls = calls || callsOrHoldsFunc(init.Rhs)
	}
	if !calls {
		return
	}
	// yaegi reads a package's files by name, and so does go build; the
	// type checker was given the block's own file first. With several
	// files, Go's order comes from checking them again in name order.
	files := slices.Clone(a.files)
	sort.SliceStable(files, func(i, j int) bool {
		return path.Base(a.fset.Position(files[i].Pos()).Filename) < path.Base(a.fset.Position(files[j].Pos()).Filename)
	})
	goInits := a.info.InitOrder
	if len(files) > 1 {
		info := &types.Info{}
		conf := types.Config{Importer: a.importer, GoVersion: "go1.26", Error: func(error) {}}
		if _, err := conf.Check(a.pkg.Name(), a.fset, files, info); err != nil {
			return
		}
		goInits = info.InitOrder
	}
	// The declarations in the order yaegi meets them.
	var specs []*ast.ValueSpec
	for _, f := range files {
		hoisted, _, _ := a.zeroVarsToHoist(f)
		var front, rest []*ast.ValueSpec
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				if vs := s.(*ast.ValueSpec); hoisted[vs] {
					front = append(front, vs)
				} else {
					rest = append(rest, vs)
				}
			}
		}
		specs = append(specs, append(front, rest...)...)
	}
	declaredBy := map[string]*ast.ValueSpec{}
	for _, vs := range specs {
		for _, n := range vs.Names {
			if n.Name != "_" { // each has a name of its own (blankPkgVars)
				declaredBy[n.Name] = vs
			}
		}
	}
	deps := map[*ast.ValueSpec][]*ast.ValueSpec{}
	for _, vs := range specs {
		ast.Inspect(vs, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				ast.Inspect(se.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						deps[vs] = a.globalDep(deps[vs], vs, id, declaredBy)
					}
					return true
				})
				return false
			}
			if id, ok := n.(*ast.Ident); ok {
				deps[vs] = a.globalDep(deps[vs], vs, id, declaredBy)
			}
			return true
		})
	}
	var yaegiOrder []*ast.ValueSpec
	done := map[*ast.ValueSpec]bool{}
	for pending := specs; len(pending) > 0; {
		var later []*ast.ValueSpec
		for _, vs := range pending {
			ready := true
			for _, d := range deps[vs] {
				ready = ready && done[d]
			}
			if !ready {
				later = append(later, vs)
				continue
			}
			done[vs] = true
			if len(vs.Values) > 0 {
				yaegiOrder = append(yaegiOrder, vs)
			}
		}
		if len(later) == len(pending) {
			return // yaegi reports "variable definition loop" itself
		}
		pending = later
	}
	// Both as the first variable of each initializer: yaegi runs a
	// declaration's values together, Go each of `a, b = x(), y()` alone.
	type step struct {
		vs   *ast.ValueSpec
		name *ast.Ident
	}
	var yaegiSteps []step
	for _, vs := range yaegiOrder {
		if len(vs.Values) == len(vs.Names) {
			for _, n := range vs.Names {
				yaegiSteps = append(yaegiSteps, step{vs, n})
			}
		} else {
			yaegiSteps = append(yaegiSteps, step{vs, vs.Names[0]})
		}
	}
	for i, init := range goInits {
		if i >= len(yaegiSteps) {
			return
		}
		if y := yaegiSteps[i]; y.name.Pos() != init.Lhs[0].Pos() {
			if y.vs.Pos() < a.file.Pos() || y.vs.Pos() > a.file.End() {
				return // reported by the view of the file it is in
			}
			at(y.vs.Pos(), "package variable %s would initialize before %s: Go initializes package variables in the order of what their initializers use, through the functions they call, and the kernel's interpreter (yaegi) in another order, so their calls would run in another order", a.varName(y.name), a.varName(init.Lhs[0]))
			return
		}
	}
}

// globalDep adds to deps the declaration of the package variable id names,
// as yaegi resolves it: by name, in the package scope, never vs itself.
func (a *analysis) globalDep(deps []*ast.ValueSpec, vs *ast.ValueSpec, id *ast.Ident, declaredBy map[string]*ast.ValueSpec) []*ast.ValueSpec {
	d, ok := declaredBy[id.Name]
	if !ok || d == vs {
		return deps
	}
	if _, isVar := a.pkg.Scope().Lookup(id.Name).(*types.Var); !isVar {
		return deps
	}
	return append(deps, d)
}

// varName names a package variable, with its line for `_`.
func (a *analysis) varName(v interface {
	Pos() token.Pos
}) string {
	name := ""
	switch v := v.(type) {
	case *ast.Ident:
		name = v.Name
	case *types.Var:
		name = v.Name()
	}
	if name != "_" {
		return name
	}
	return fmt.Sprintf("_ (line %d)", a.fset.Position(v.Pos()).Line)
}
