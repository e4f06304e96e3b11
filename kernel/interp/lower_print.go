package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The builtins print and println write to stderr in Go; yaegi v0.16 wrote
// them to the interpreter's stdout, so a debugging println became part of
// the block's output (corpus adv5_builtin_println). Each call becomes
// strata_rt.Print(newline, args...), which writes to the block's stderr
// (runtime_print.go), on the same line. A call inside text another
// lowering copies as written (a deferred call, a go statement's or
// min/max/clear's arguments) cannot be rewritten: unsupported routes it to
// compiled mode.

// builtinPrints returns the edits for calls of print and println, and the
// calls they cannot rewrite.
func (a *analysis) builtinPrints(off func(token.Pos) int) (edits []edit, stuck []*ast.CallExpr) {
	moved := a.movedExprs()
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		b, ok := a.info.Uses[id].(*types.Builtin)
		if !ok || b.Name() != "print" && b.Name() != "println" {
			return true
		}
		if inAny(call, moved) {
			stuck = append(stuck, call)
			return true
		}
		flag := "false"
		if b.Name() == "println" {
			flag = "true"
		}
		if len(call.Args) > 0 {
			flag += ", "
		}
		edits = append(edits,
			edit{off: off(id.Pos()), del: len(id.Name), text: rtAlias + ".Print"},
			edit{off: off(call.Lparen) + 1, text: flag})
		return true
	})
	return edits, stuck
}
