package interp

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// In Go, a division of two untyped integer constants is an integer
// division whatever type the result then takes: `var d float64 = 7 / 2`
// is 3, `g * (1 / 2)` is 0, `const c = 7 / 2 * 2.0` is 6. yaegi v0.16
// divides in the type of the context instead (3.5, 5, 7), a silent wrong
// answer (corpus adv3_const_int_division). Each such division becomes its
// value, an untyped integer constant as the original is: `(3)`, within
// the same columns' line.
//
// A division repeated by iota in a const group (`q0 float64 = iota / 2;
// q1; q2`) has one value per constant and cannot be written once; nor can
// one inside text another lowering copies (a deferred call, a go
// statement's arguments, min/max/clear's arguments). Those are stuck:
// unsupported routes them to compiled mode.
func (a *analysis) constIntDivisions(off func(token.Pos) int) (edits []edit, stuck []stuckDivision) {
	moved := a.movedExprs()
	repeated := map[ast.Expr]bool{} // values a later spec of its const group repeats
	ast.Inspect(a.file, func(n ast.Node) bool {
		gd, ok := n.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			return true
		}
		var last *ast.ValueSpec
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) > 0 {
				last = vs
			} else if last != nil {
				for _, v := range last.Values {
					repeated[v] = true
				}
			}
		}
		return true
	})
	var inRepeated ast.Expr
	ast.Inspect(a.file, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if repeated[e] {
			inRepeated = e
		}
		bin, ok := e.(*ast.BinaryExpr)
		if !ok || bin.Op != token.QUO || !a.untypedInt(bin.X) || !a.untypedInt(bin.Y) {
			return true
		}
		v := constant.ToInt(a.info.Types[bin].Value)
		if v.Kind() != constant.Int {
			return true
		}
		if inAny(bin, moved) {
			stuck = append(stuck, stuckDivision{bin, "inside a deferred call or a go statement's or min/max/clear's arguments, which the kernel copies as written"})
			return false
		}
		if inRepeated != nil && inRepeated.Pos() <= bin.Pos() && bin.End() <= inRepeated.End() && usesIota(a, bin) {
			stuck = append(stuck, stuckDivision{bin, "repeated with iota in a const group, so it has one value per constant"})
			return false
		}
		edits = append(edits, edit{off: off(bin.Pos()), del: off(bin.End()) - off(bin.Pos()), text: "(" + v.ExactString() + ")"})
		return false
	})
	return edits, stuck
}

// stuckDivision is a division constIntDivisions cannot rewrite, and where
// it is.
type stuckDivision struct {
	expr  *ast.BinaryExpr
	where string
}

// untypedInt reports whether e is an untyped integer (or rune) constant
// expression, so that / between two of them divides as integers.
func (a *analysis) untypedInt(e ast.Expr) bool {
	tv, ok := a.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR
	case *ast.ParenExpr:
		return a.untypedInt(x.X)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || x.Op == token.XOR) && a.untypedInt(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.SHL, token.SHR:
			return a.untypedInt(x.X)
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return a.untypedInt(x.X) && a.untypedInt(x.Y)
		}
		return false
	case *ast.Ident:
		return untypedIntConst(a.info.Uses[x])
	case *ast.SelectorExpr:
		return untypedIntConst(a.info.Uses[x.Sel])
	}
	return false
}

func untypedIntConst(obj types.Object) bool {
	c, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	b, ok := c.Type().(*types.Basic)
	return ok && (b.Kind() == types.UntypedInt || b.Kind() == types.UntypedRune)
}

func usesIota(a *analysis, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && a.info.Uses[id] == types.Universe.Lookup("iota") {
			found = true
		}
		return !found
	})
	return found
}
