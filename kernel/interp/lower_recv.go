package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
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
// are left as written; op-assignments (x += <-c) are right too.
//
// A select case that assigns (`case x = <-c:`, `case x, ok = <-c:`) is
// worse: yaegi's select loses the value the same way (x stays 0) and then
// fails with "reflect.Select: invalid Dir" on a later select, parenthesized
// or not (corpus k9c_select_recv_assign). It becomes a case that declares,
// plus the assignment as the first statement of the case's body, on the
// case's own line: `case strata_recv := <-c: x = strata_recv;`. Go
// evaluates the destinations only once the case is chosen, which is where
// the moved assignment does it. The destinations are moved as text, so
// only those no other edit can touch (names, fields, indexes by
// arithmetic on names or literals, *p) are lowered; recvCaseLowerable says which, and
// unsupported.go routes the others to compiled mode.

// lowerRecvAssigns returns the edits for every plain assignment in the
// file whose right-hand side is a bare receive.
func (a *analysis) lowerRecvAssigns(src string, off func(token.Pos) int) []edit {
	var edits []edit
	comm := map[ast.Stmt]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil {
			comm[cc.Comm] = true
			edits = append(edits, a.lowerRecvCase(cc, src, off)...)
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

// recvCase returns the assignment of a select case `case x[, ok] = <-c:`.
func recvCase(cc *ast.CommClause) (*ast.AssignStmt, bool) {
	as, ok := cc.Comm.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Rhs) != 1 {
		return nil, false
	}
	u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
	return as, ok && u.Op == token.ARROW
}

// lowerRecvCase turns `case x = <-c:` into `case strata_recv := <-c: x =
// strata_recv;` and `case x, ok = <-c:` into `case strata_recv, strata_ok
// := <-c: x, ok = strata_recv, strata_ok;` (a blank destination stays
// blank). Each case is a scope of its own, so the names never clash.
func (a *analysis) lowerRecvCase(cc *ast.CommClause, src string, off func(token.Pos) int) []edit {
	as, ok := recvCase(cc)
	if !ok || !a.recvCaseLowerable(as) {
		return nil
	}
	names := []string{"strata_recv", "strata_ok"}
	var decl, lhs, rhs []string
	for i, l := range as.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
			decl = append(decl, "_")
			continue
		}
		decl = append(decl, names[i])
		lhs = append(lhs, src[off(l.Pos()):off(l.End())])
		rhs = append(rhs, names[i])
	}
	edits := []edit{{off: off(as.Pos()), del: off(as.Rhs[0].Pos()) - off(as.Pos()), text: strings.Join(decl, ", ") + " := "}}
	if len(lhs) > 0 {
		edits = append(edits, edit{off: off(cc.Colon) + 1, text: " " + strings.Join(lhs, ", ") + " = " + strings.Join(rhs, ", ") + ";"})
	}
	return edits
}

// recvCaseLowerable reports whether every destination of a select case's
// assignment can be moved after the case's colon as written (movableDest).
func (a *analysis) recvCaseLowerable(as *ast.AssignStmt) bool {
	for _, l := range as.Lhs {
		if !a.movableDest(l) {
			return false
		}
	}
	return true
}

// movableDest reports whether an assignment's destination is built only of
// names (not packages), fields, *p, and indexes by arithmetic on names or
// literals: text no other rewrite edits, so a lowering can move it
// elsewhere on its line as written.
func (a *analysis) movableDest(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		_, pkg := a.info.Uses[e].(*types.PkgName)
		return !pkg
	case *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return a.movableDest(e.X)
	case *ast.StarExpr:
		return a.movableDest(e.X)
	case *ast.SelectorExpr:
		return a.movableDest(e.X)
	case *ast.IndexExpr:
		return a.movableDest(e.X) && a.movableDest(e.Index)
	case *ast.BinaryExpr: // == and != may be rewritten (interfaceEqual)
		return e.Op != token.EQL && e.Op != token.NEQ && a.movableDest(e.X) && a.movableDest(e.Y)
	}
	return false
}

// yaegi v0.16 also writes the result of an operator (x + 1, -x, !ok, s +
// "b") straight into its destination, and when that is a field of
// interface type of a standard-library struct (ring.Ring's and
// list.Element's Value, also promoted into a block's struct) the write
// fails inside yaegi: with a bool it reports "reflect.Value.SetBool on
// interface Value"; with an int or a string the function just stops
// there, silently, and the run succeeds with the rest of its output
// missing (corpus adv2_native_any_field). Parenthesized, the operation is
// computed first and then assigned: `e.Value = (x + 1)`. == and != are
// assigned right (and may be rewritten by interfaceEqual), so they are
// left alone.

// nativeFieldAssigns returns the opening and the closing parentheses
// separately: rewrite puts the closing ones first and the opening ones
// last in its list of edits, so they enclose every other edit at the
// same offsets (a shift count's ShiftCount(…), a wrapped call at the end).
func (a *analysis) nativeFieldAssigns(off func(token.Pos) int) (open, shut []edit) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if !a.nativeIfaceField(l) {
				continue
			}
			switch r := as.Rhs[i].(type) {
			case *ast.BinaryExpr:
				if r.Op == token.EQL || r.Op == token.NEQ {
					continue
				}
			case *ast.UnaryExpr:
				if r.Op == token.ARROW { // parenthesized by lowerRecvAssigns
					continue
				}
			default:
				continue
			}
			open = append(open, edit{off: off(as.Rhs[i].Pos()), text: "("})
			shut = append(shut, edit{off: off(as.Rhs[i].End()), text: ")"})
		}
		return true
	})
	return open, shut
}

// nativeIfaceField reports whether e selects a field of interface type
// that a standard-library package declares.
func (a *analysis) nativeIfaceField(e ast.Expr) bool {
	se, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := a.info.Selections[se]
	if sel == nil || sel.Kind() != types.FieldVal {
		return false
	}
	pkg := sel.Obj().Pkg()
	return pkg != nil && pkg != a.pkg && !a.sourcePkg(pkg.Path()) && types.IsInterface(sel.Obj().Type())
}
