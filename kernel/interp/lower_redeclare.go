package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A short variable declaration of several values may redeclaration a variable
// of the same scope (`count, total := 2, 100` after `total := 0`): Go
// assigns the existing variable. yaegi v0.16 gives it a new frame slot
// instead (cfg.go, defineStmt: outside the package scope a name always
// gets a new symbol), so whatever referred to the old one keeps the old
// value: a closure that captured it (total stayed 100 after add(5)), a
// pointer taken before, a deferred function reading a named result `err`,
// and the named result itself, returned by a bare return (corpus
// adv7_redeclare_define). A single call's results (`n, err := f()`) take
// another path that is right.
//
// Each redeclared name gets a fresh name in the declaration, assigned to
// it right after, on the same line: `strata_d0, total := 2, 100; count =
// …` is `count, total := 2, 100` written as `strata_d0, total := 2, 100;
// count = strata_d0`. Go evaluates every value before it assigns any, as
// this does. An untyped value (a constant, nil, a comparison) is converted
// to the variable's type first, as the declaration would: strata_d0 would
// otherwise take its default type.

type redeclaration struct {
	as    *ast.AssignStmt
	names []*ast.Ident // the redeclared destinations
	// convert are the types to convert each one's value to ("" for none).
	convert []string
}

// redeclares returns the short variable declarations of several values
// that redeclaration a variable.
func (a *analysis) redeclares() []redeclaration {
	var out []redeclaration
	ast.Inspect(a.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		var r redeclaration
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || id.Name == "_" || a.info.Defs[id] != nil {
				continue
			}
			v, ok := a.info.Uses[id].(*types.Var)
			if !ok {
				continue
			}
			conv := ""
			if a.untypedValue(as.Rhs[i]) {
				conv = types.TypeString(v.Type(), a.qualifier())
			}
			r.names = append(r.names, id)
			r.convert = append(r.convert, conv)
		}
		if len(r.names) > 0 {
			r.as = as
			out = append(out, r)
		}
		return true
	})
	return out
}

// untypedValue reports whether e is a constant, nil or a comparison: a
// value whose type the declaration gives it.
func (a *analysis) untypedValue(e ast.Expr) bool {
	tv := a.info.Types[e]
	if tv.Value != nil || tv.IsNil() {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return true
		}
	case *ast.UnaryExpr:
		return x.Op == token.NOT
	}
	return false
}

// lowerRedeclares returns the edits that assign redeclared variables, and
// the declarations it cannot rewrite (a type that cannot be written, or
// text another lowering copies): unsupported routes those. tails are the
// assignments after each declaration: rewrite puts them first in its list
// of edits, so they land after every other edit at the declaration's end
// (a closing parenthesis of its last value).
func (a *analysis) lowerRedeclares(off func(token.Pos) int) (edits, tails []edit, stuck []*ast.AssignStmt) {
	moved := a.movedExprs()
	n := 0
	for _, r := range a.redeclares() {
		ok := !inAny(r.as, moved)
		for _, c := range r.convert {
			ok = ok && !typeNeedsMissingImport(c)
		}
		if !ok {
			stuck = append(stuck, r.as)
			continue
		}
		assign := ""
		for i, id := range r.names {
			tmp := fmt.Sprintf("strata_d%d", n)
			n++
			edits = append(edits, edit{off: off(id.Pos()), del: len(id.Name), text: tmp})
			assign += fmt.Sprintf("; %s = %s", id.Name, tmp)
			if r.convert[i] != "" {
				v := r.as.Rhs[indexOf(r.as.Lhs, id)]
				edits = append(edits, edit{off: off(v.Pos()), text: "(" + r.convert[i] + ")("}, edit{off: off(v.End()), text: ")"})
			}
		}
		tails = append(tails, edit{off: off(r.as.End()), text: assign})
	}
	return edits, tails, stuck
}

func indexOf(list []ast.Expr, e ast.Expr) int {
	for i, x := range list {
		if x == e {
			return i
		}
	}
	return -1
}
