package interp

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// In Go, a division of two untyped integer constants is an integer
// division whatever type the result then takes: `var d float64 = 7 / 2`
// is 3, `g * (1 / 2)` is 0, `const c = 7 / 2 * 2.0` is 6. yaegi v0.16
// divides in the type of the context instead (3.5, 5, 7), a silent wrong
// answer (corpus adv3_const_int_division); with a floating-point constant
// in an integer context (`var n int = 7.0 / 2 * 2`, 7 in Go) it gave 0.
// Each division of two untyped constants becomes its value, an untyped
// constant of the same kind as the original: `(3)`, `(3.5)`, on the same
// line. A quotient no literal holds exactly (1.0 / 3) is left as written.
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
	// Array lengths given by an untyped floating-point constant (`const
	// n = 2.5 * 2` then `[n]int`, 5 elements in Go): yaegi refused them
	// with "undefined: a" at the variable's use. Each becomes its integer
	// value, like a division.
	floatLens := map[ast.Expr]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if at, ok := n.(*ast.ArrayType); ok && at.Len != nil {
			if b, ok := a.info.TypeOf(at.Len).(*types.Basic); ok && b.Info()&types.IsInteger == 0 && a.info.Types[at.Len].Value != nil {
				floatLens[at.Len] = true
			}
		}
		return true
	})
	var inRepeated ast.Expr
	where := func(e ast.Expr) string {
		if inAny(e, moved) {
			return "inside a deferred call or a go statement's or min/max/clear's arguments, which the kernel copies as written"
		}
		if inRepeated != nil && inRepeated.Pos() <= e.Pos() && e.End() <= inRepeated.End() && usesIota(a, e) {
			return "repeated with iota in a const group, so it has one value per constant"
		}
		return ""
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if repeated[e] {
			inRepeated = e
		}
		if floatLens[e] {
			v := constant.ToInt(a.info.Types[e].Value)
			if v.Kind() != constant.Int {
				return false // not a valid length: the type checker said so
			}
			if where(e) == "" { // else yaegi refuses it, and the block runs compiled
				edits = append(edits, edit{off: off(e.Pos()), del: off(e.End()) - off(e.Pos()), text: "(" + v.ExactString() + ")"})
			}
			return false
		}
		if text, whole := a.inexactInInteger(e); whole {
			if why := where(e); why != "" {
				stuck = append(stuck, stuckDivision{e, why})
			} else {
				edits = append(edits, edit{off: off(e.Pos()), del: off(e.End()) - off(e.Pos()), text: text})
			}
			return false
		}
		bin, ok := e.(*ast.BinaryExpr)
		if !ok || bin.Op != token.QUO || !a.untypedConst(bin.X, true) || !a.untypedConst(bin.Y, true) {
			return true
		}
		text, exact := a.quotientText(bin)
		if !exact {
			return true // 1.0 / 3: no literal holds it; left where yaegi divides right
		}
		if why := where(bin); why != "" {
			stuck = append(stuck, stuckDivision{bin, why})
			return false
		}
		edits = append(edits, edit{off: off(bin.Pos()), del: off(bin.End()) - off(bin.Pos()), text: text})
		return false
	})
	return edits, stuck
}

// inexactInInteger reports whether e is an untyped constant expression
// of an integer type holding a division no literal holds (`var n int =
// 1.0 / 3 * 3`, 1 in Go, 0 under yaegi), and returns its integer value:
// the whole expression is written as that value.
func (a *analysis) inexactInInteger(e ast.Expr) (string, bool) {
	switch e.(type) {
	case *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
	default:
		return "", false
	}
	tv := a.info.Types[e]
	b, ok := tv.Type.(*types.Basic)
	if !ok || tv.Value == nil || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 || !a.untypedConst(e, true) {
		return "", false
	}
	inexact := false
	ast.Inspect(e, func(n ast.Node) bool {
		if bin, ok := n.(*ast.BinaryExpr); ok && bin.Op == token.QUO {
			if _, exact := a.quotientText(bin); !exact {
				inexact = true
			}
		}
		return !inexact
	})
	v := constant.ToInt(tv.Value)
	if !inexact || v.Kind() != constant.Int {
		return "", false
	}
	return "(" + v.ExactString() + ")", true
}

// stuckDivision is a division constIntDivisions cannot rewrite, and where
// it is.
type stuckDivision struct {
	expr  ast.Expr
	where string
}

// quotientText is the value of a division of two untyped constants as a
// literal of its kind, parenthesized: an integer when both are integers
// (Go divides them as such), else a floating-point literal, when one
// holds the quotient exactly (7.0 / 2 is 3.5, 1.0 / 3 has none).
func (a *analysis) quotientText(bin *ast.BinaryExpr) (string, bool) {
	x, y := a.info.Types[bin.X].Value, a.info.Types[bin.Y].Value
	if a.untypedConst(bin.X, false) && a.untypedConst(bin.Y, false) {
		v := constant.BinaryOp(constant.ToInt(x), token.QUO_ASSIGN, constant.ToInt(y))
		return "(" + v.ExactString() + ")", v.Kind() == constant.Int
	}
	v := constant.BinaryOp(x, token.QUO, y)
	if v.Kind() != constant.Int && v.Kind() != constant.Float {
		return "", false
	}
	f, _ := constant.Float64Val(v)
	lit := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(lit, ".eIN") {
		lit += ".0"
	}
	back := constant.MakeFromLiteral(strings.TrimPrefix(lit, "-"), token.FLOAT, 0)
	if f < 0 {
		back = constant.UnaryOp(token.SUB, back, 0)
	}
	if back.Kind() == constant.Unknown || !constant.Compare(back, token.EQL, v) {
		return "", false
	}
	return "(" + lit + ")", true
}

// untypedConst reports whether e is an untyped integer (or rune) constant
// expression, or with floats also an untyped floating-point one.
func (a *analysis) untypedConst(e ast.Expr, floats bool) bool {
	tv, ok := a.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Kind == token.INT || x.Kind == token.CHAR || (floats && x.Kind == token.FLOAT)
	case *ast.ParenExpr:
		return a.untypedConst(x.X, floats)
	case *ast.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD || (x.Op == token.XOR && !floats)) && a.untypedConst(x.X, floats)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.SHL, token.SHR:
			return a.untypedConst(x.X, false)
		case token.ADD, token.SUB, token.MUL, token.QUO:
			return a.untypedConst(x.X, floats) && a.untypedConst(x.Y, floats)
		case token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return a.untypedConst(x.X, false) && a.untypedConst(x.Y, false)
		}
		return false
	case *ast.Ident:
		return untypedConstObj(a.info.Uses[x], floats)
	case *ast.SelectorExpr:
		return untypedConstObj(a.info.Uses[x.Sel], floats)
	}
	return false
}

func untypedConstObj(obj types.Object, floats bool) bool {
	c, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	b, ok := c.Type().(*types.Basic)
	return ok && (b.Kind() == types.UntypedInt || b.Kind() == types.UntypedRune || (floats && b.Kind() == types.UntypedFloat))
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
