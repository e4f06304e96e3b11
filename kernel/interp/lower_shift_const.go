package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// In a shift by a count that is not constant, an untyped constant on the
// left takes the type the context gives the whole shift: in `x&(1<<s) != 0`
// with x a uint64, 1 is a uint64. yaegi v0.16 makes it an int wherever the
// shift is not assigned straight to a typed destination, and then fails
// mixing it with the uint64 ("reflect: call of reflect.Value.Uint on int
// Value", at no line of the block; corpus adv7_bits_and_hashes). The
// type-checker knows the type the constant takes, so the constant is
// written converted to it: `x&(uint64(1)<<s) != 0`.

// shiftConstTypes returns the edits that convert the constant left operand
// of every non-constant shift whose type is not int (int is what yaegi
// gives it anyway).
func (a *analysis) shiftConstTypes(off func(token.Pos) int) []edit {
	var edits []edit
	moved := a.movedExprs()
	ast.Inspect(a.file, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || (b.Op != token.SHL && b.Op != token.SHR) || a.info.Types[b].Value != nil || inAny(b, moved) {
			return true
		}
		tv, ok := a.info.Types[b.X]
		if !ok || tv.Value == nil || tv.Type == nil {
			return true
		}
		if basic, ok := tv.Type.(*types.Basic); ok && (basic.Kind() == types.Int || basic.Info()&types.IsUntyped != 0) {
			return true
		}
		ts := types.TypeString(tv.Type, a.qualifier())
		if typeNeedsMissingImport(ts) {
			return true
		}
		edits = append(edits, edit{off: off(b.X.Pos()), text: ts + "("}, edit{off: off(b.X.End()), text: ")"})
		return true
	})
	return edits
}
