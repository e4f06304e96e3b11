package interp

import (
	"go/ast"
	"go/token"
)

// yaegi v0.16 compiles `dst = <-c` by letting the receive write straight
// into dst's frame slot (cfg.go, "Assign by reading from a receiving
// channel"). That slot is only right for a plain local of the same
// function: for an element (s[i], a[i]), a field (s.f, p.f), a
// dereference (*p) or a variable of an enclosing function seen from a
// closure, the value lands in a temporary and the assignment is silently
// lost (corpus k9b_recv_assign; k9b_goroutine_loop_capture is how it was
// first seen, looking like a loop-variable capture problem). A
// parenthesized receive is not a bare receive node, so yaegi assigns it
// the ordinary way: `dst = <-c` becomes `dst = (<-c)`, on the same line.
// Comma-ok receives (v, ok = <-c) take another path that is right, and
// are left as written; op-assignments (x += <-c) are right too. A select
// case `case x = <-c:` is left too: yaegi fails it loudly ("reflect.Select:
// invalid Dir"), parenthesized or not.

// lowerRecvAssigns returns the edits for every plain assignment in the
// file whose right-hand side is a bare receive.
func (a *analysis) lowerRecvAssigns(off func(token.Pos) int) []edit {
	var edits []edit
	comm := map[ast.Stmt]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil {
			comm[cc.Comm] = true
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || comm[as] || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for _, r := range as.Rhs {
			if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				edits = append(edits, edit{off: off(u.Pos()), text: "("}, edit{off: off(u.End()), text: ")"})
			}
		}
		return true
	})
	return edits
}
