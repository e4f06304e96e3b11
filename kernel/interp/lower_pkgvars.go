package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"strings"
)

// A package variable without an initializer is its zero value from the
// start in Go. yaegi v0.16 instead sets it to zero where it is declared, in
// the order of initialization, so what an earlier initializer's call stored
// into it is erased: with `var _ = Register("csv", …)` before `var registry
// map[string]Codec`, Register filling registry, Go kept the codec and yaegi
// lost it (corpus adv5_init_registry, a registry filled while the package
// initializes). The kernel moves such a declaration in front of every
// other: after the file's imports, on the line they end on, and leaves its
// own place blank. Go means the same by both places; it is done only for a
// declaration after an initializer that calls something or holds a
// function literal, where yaegi's order can show. A declaration over
// several lines cannot move without moving lines, nor one in a file with no
// imports to put it after, nor one in a file yaegi reads after another
// file's initializers that call: unsupported routes those to compiled mode.

// yaegi also resolves the names in an initializer by name, `_` included,
// and `_` names the last `_` declared: each `var _ = Register(…)` but the
// last waited for that one, and they ran in reverse. Each package-level `_`
// gets a name of its own (strata_blank…), unused as `_` is.

// blankPkgVars returns the edits that name the package-level blanks.
func (a *analysis) blankPkgVars(off func(token.Pos) int) []edit {
	file := 0
	for i, f := range a.files {
		if f == a.file {
			file = i
		}
	}
	var edits []edit
	for _, d := range a.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if n.Name == "_" {
					edits = append(edits, edit{off: off(n.Pos()), del: 1, text: fmt.Sprintf("strata_blank%d_%d", file, off(n.Pos()))})
				}
			}
		}
	}
	return edits
}

// hoistedZeroVars returns the edits that move such declarations, and the
// ones that cannot move.
func (a *analysis) hoistedZeroVars(src string, off func(token.Pos) int) (edits []edit, stuck []*ast.ValueSpec) {
	hoisted, stuck, after := a.zeroVarsToHoist(a.file)
	var moved []string
	for _, d := range a.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if !hoisted[vs] {
				continue
			}
			moved = append(moved, "var "+src[off(vs.Pos()):off(vs.End())])
			if gd.Lparen.IsValid() {
				edits = append(edits, edit{off: off(vs.Pos()), del: off(vs.End()) - off(vs.Pos())})
			} else {
				edits = append(edits, edit{off: off(gd.Pos()), del: off(gd.End()) - off(gd.Pos())})
			}
		}
	}
	if len(moved) > 0 {
		edits = append(edits, edit{off: off(after), text: "; " + strings.Join(moved, "; ")})
	}
	return edits, stuck
}

// zeroVarsToHoist returns the declarations of f without a value that come
// after an initializer that calls, those of them that can move (hoisted)
// and those that cannot (stuck), and where the moved ones go.
func (a *analysis) zeroVarsToHoist(f *ast.File) (hoisted map[*ast.ValueSpec]bool, stuck []*ast.ValueSpec, after token.Pos) {
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			after = gd.End()
		}
	}
	line := func(p token.Pos) int { return a.fset.Position(p).Line }
	hoisted = map[*ast.ValueSpec]bool{}
	// An initializer so far calls something: in this file, or in one
	// yaegi reads before it (by name, see unsupported_initorder.go). After
	// another file's, a move within this file does not help: stuck.
	calls, earlier := false, false
	name := func(g *ast.File) string { return path.Base(a.fset.Position(g.Pos()).Filename) }
	for _, g := range a.files {
		if g == f || name(g) >= name(f) {
			continue
		}
		for _, d := range g.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, s := range gd.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						earlier = earlier || a.runsBlockCode(v)
					}
				}
			}
		}
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			switch {
			case len(vs.Values) > 0:
				for _, v := range vs.Values {
					calls = calls || callsOrHoldsFunc(v)
				}
			case earlier:
				stuck = append(stuck, vs)
			case !calls:
			case !after.IsValid() || line(vs.Pos()) != line(vs.End()):
				stuck = append(stuck, vs)
			default:
				hoisted[vs] = true
			}
		}
	}
	return hoisted, stuck, after
}

// runsBlockCode reports whether e may run the package's own code: it
// holds a function literal, or calls a function, method or function value
// of the package (regexp.MustCompile(…) cannot store into its variables).
func (a *analysis) runsBlockCode(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			found = true
		case *ast.CallExpr:
			var id *ast.Ident
			switch f := ast.Unparen(x.Fun).(type) {
			case *ast.Ident:
				id = f
			case *ast.SelectorExpr:
				id = f.Sel
			case *ast.IndexExpr: // a generic function instantiated
				if fid, ok := f.X.(*ast.Ident); ok {
					id = fid
				}
			default:
				found = true // a call of a call's result, an index, …
			}
			if id != nil {
				switch obj := a.info.Uses[id].(type) {
				case *types.Func:
					found = found || obj.Pkg() == a.pkg
				case *types.Var:
					found = true // a function value
				}
			}
		}
		return !found
	})
	return found
}

// callsOrHoldsFunc reports whether e has a call (conversions and builtins
// included: moving a declaration is harmless) or a function literal in it.
func callsOrHoldsFunc(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			found = true
		}
		return !found
	})
	return found
}
