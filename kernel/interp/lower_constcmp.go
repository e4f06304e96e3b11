package interp

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Go compares untyped constants exactly, at any size. yaegi v0.16 refuses
// most constants beyond int64 ("constant … overflows int64"), but not one
// it computes from a named constant, and it compares that in int64: with
// `const m = math.MinInt64`, `-m == m` was true and `-m > 0` false, where
// Go says false and true (corpus adv5_overflow_conv). A comparison of
// untyped constants with an operand outside int64 becomes its value,
// `(true)` or `(false)`, an untyped boolean constant as in Go, on the same
// line. Inside text another lowering copies as written (a deferred call, a
// go statement's or min/max/clear's arguments) it cannot be replaced, and
// unsupported routes it to compiled mode.

// constComparisons returns the edits that replace such comparisons, and
// the ones it cannot replace.
func (a *analysis) constComparisons(off func(token.Pos) int) (edits []edit, stuck []ast.Expr) {
	moved := a.movedExprs()
	ast.Inspect(a.file, func(n ast.Node) bool {
		bin, ok := n.(*ast.BinaryExpr)
		if !ok || !isComparison(bin.Op) || !a.beyondInt64(bin.X) && !a.beyondInt64(bin.Y) {
			return true
		}
		tv := a.info.Types[bin]
		if tv.Value == nil || tv.Value.Kind() != constant.Bool {
			return true
		}
		if inAny(bin, moved) {
			stuck = append(stuck, bin)
			return false
		}
		text := "(false)"
		if constant.BoolVal(tv.Value) {
			text = "(true)"
		}
		edits = append(edits, edit{off: off(bin.Pos()), del: off(bin.End()) - off(bin.Pos()), text: text})
		return false
	})
	return edits, stuck
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// beyondInt64 reports whether e is an untyped integer constant whose
// value int64 cannot hold.
func (a *analysis) beyondInt64(e ast.Expr) bool {
	tv, ok := a.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	if !ok || b.Info()&types.IsUntyped == 0 {
		return false
	}
	_, exact := constant.Int64Val(tv.Value)
	return !exact
}
