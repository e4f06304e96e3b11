package interp

import (
	"fmt"
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

// yaegi v0.16 also writes the result of an operator straight into its
// destination, and when that is an interface the write fails inside yaegi:
// with a bool it reports "reflect.Value.SetBool on interface Value"; with a
// number or a string the function just stops there, silently, and the run
// succeeds with the rest of its output missing (corpus
// adv2_native_any_field, adv2_unary_into_any). It happens for a unary -, ^
// or !, and for %, << and >>, that become an interface anywhere (v = -x
// with v an any, m[k] = n % 10, return -x from a func returning any;
// other binary operators are parenthesized too, as they cost nothing),
// and for any operator assigned
// to a field of interface type of a standard-library struct (list.Element's
// and ring.Ring's Value: e.Value = e.Value.(int) + 1), also promoted into
// a block's struct. Parenthesized, the operation is computed first and
// then converted: `e.Value = (x + 1)`. == and != are assigned right (and
// may be rewritten by interfaceEqual), so they are left alone.

// A third case: in an assignment or declaration of several values with a
// composite literal or a call among them, yaegi v0.16 loses every other
// value: after `n, seen := 0, map[string]bool{}` (or `a, b = 1, []int{4}`,
// `var x, ys = 1, []int{}`, an if's or switch's init, `n, err = -1,
// errors.New("empty")`, `a, b = x, g()`) n is 0, or whatever it held
// before, instead of its value (corpus adv2_multi_assign_literal). A
// parenthesized literal or call is assigned right: `n, seen := 0,
// (map[string]bool{})`.

// operatorParens returns the opening and the closing parentheses
// separately: rewrite puts the closing ones first and the opening ones
// last in its list of edits, so they enclose every other edit at the
// same offsets (a shift count's ShiftCount(…), a wrapped call at the end).
//
// stuck are those it would parenthesize inside a function literal that
// another lowering copies as text (a deferred call's): unsupported routes
// them to compiled mode.
func (a *analysis) operatorParens(off func(token.Pos) int) (open, shut []edit, stuck []ast.Expr) {
	done := map[ast.Expr]bool{}
	moved := a.movedExprs()
	var movedLits []*ast.FuncLit
	for _, m := range moved {
		ast.Inspect(m, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				movedLits = append(movedLits, lit)
			}
			return true
		})
	}
	args := map[ast.Expr]bool{} // a call's arguments are passed right
	ast.Inspect(a.file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			for _, arg := range c.Args {
				args[arg] = true
			}
		}
		return true
	})
	within := func(e ast.Expr, n ast.Node) bool { return n.Pos() <= e.Pos() && e.End() <= n.End() }
	paren := func(e ast.Expr) {
		inMoved := false
		for _, m := range moved {
			inMoved = inMoved || within(e, m)
		}
		if inMoved && !done[e] && !args[e] {
			for _, lit := range movedLits {
				if within(e, lit.Body) {
					stuck = append(stuck, e)
					break
				}
			}
		}
		if !done[e] && !inMoved {
			done[e] = true
			open = append(open, edit{off: off(e.Pos()), text: "("})
			shut = append(shut, edit{off: off(e.End()), text: ")"})
		}
	}
	a.ifaceConversions(a.file, true, func(e ast.Expr, _ types.Type, _ bool, _ *types.Func) {
		if a.info.Types[e].Value != nil {
			return // a constant is converted, not computed
		}
		switch x := e.(type) {
		case *ast.UnaryExpr:
			switch x.Op {
			case token.SUB, token.XOR, token.NOT, token.ADD:
				paren(e)
			}
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				paren(e)
			}
		}
	})
	literals := func(values []ast.Expr) {
		if len(values) < 2 {
			return
		}
		for _, v := range values {
			switch v.(type) {
			case *ast.CompositeLit, *ast.CallExpr:
				paren(v)
			}
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			literals(vs.Values)
		}
		as, ok := n.(*ast.AssignStmt)
		if ok && len(as.Lhs) == len(as.Rhs) {
			literals(as.Rhs)
		}
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if !a.nativeIfaceField(l) {
				continue
			}
			switch r := as.Rhs[i].(type) {
			case *ast.BinaryExpr:
				if r.Op != token.EQL && r.Op != token.NEQ {
					paren(r)
				}
			case *ast.UnaryExpr:
				if r.Op != token.ARROW && r.Op != token.AND { // a receive is parenthesized by lowerRecvAssigns
					paren(r)
				}
			}
		}
		return true
	})
	for _, lit := range a.structLitAssigns() {
		paren(lit) // lower_struct_lit.go
	}
	return open, shut, stuck
}

// movedExprs are the expressions other lowerings copy as text into code
// they write (a deferred call, a go call's function and arguments, the
// arguments of min, max and clear): an edit inside one would be lost or
// misplaced, so operatorParens leaves them alone (yaegi evaluates those
// through its call path, which does not write into an interface).
func (a *analysis) movedExprs() []ast.Expr {
	var out []ast.Expr
	call := func(c *ast.CallExpr) {
		if _, lit := c.Fun.(*ast.FuncLit); !lit {
			out = append(out, c.Fun)
		}
		out = append(out, c.Args...)
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			// A function literal too, when wrapDeferCall or lowerLoopDefers
			// copy it (it has arguments, or it is in a loop).
			if len(n.Call.Args) > 0 || a.inLoop(n) {
				out = append(out, n.Call)
			} else if _, lit := n.Call.Fun.(*ast.FuncLit); !lit {
				out = append(out, n.Call)
			}
		case *ast.GoStmt:
			call(n.Call)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok && (b.Name() == "min" || b.Name() == "max" || b.Name() == "clear") {
					out = append(out, n.Args...)
				}
			}
		}
		return true
	})
	return out
}

// inAny reports whether n lies within one of the expressions.
func inAny(n ast.Node, exprs []ast.Expr) bool {
	for _, e := range exprs {
		if e.Pos() <= n.Pos() && n.End() <= e.End() {
			return true
		}
	}
	return false
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

// multiAssignNils returns the edits for an assignment of several values
// with a nil among them (`x, err = 4, nil`): yaegi v0.16 stops the
// function there, silently (the run succeeds with the rest of its output
// missing; corpus adv2_multi_assign_literal). A nil converted to its
// destination's type is assigned right: `x, err = 4, (error)(nil)`. When
// that type cannot be written in the block's terms, or the statement is in
// text another lowering copies (movedExprs), unsupported routes it to
// compiled mode.
func (a *analysis) multiAssignNils(off func(token.Pos) int) []edit {
	var edits []edit
	moved := a.movedExprs()
	a.eachMultiAssignNil(func(id *ast.Ident, ts string) {
		if !typeNeedsMissingImport(ts) && !inAny(id, moved) {
			edits = append(edits, edit{off: off(id.Pos()), del: len(id.Name), text: "(" + ts + ")(nil)"})
		}
	})
	return edits
}

// eachMultiAssignNil calls f with each nil assigned by a multi-value
// assignment and its destination's type as the block writes it.
func (a *analysis) eachMultiAssignNil(f func(id *ast.Ident, ts string)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			id, ok := ast.Unparen(r).(*ast.Ident)
			if !ok {
				continue
			}
			if _, isNil := a.info.Uses[id].(*types.Nil); !isNil {
				continue
			}
			if t := a.info.TypeOf(as.Lhs[i]); t != nil {
				f(id, types.TypeString(t, a.qualifier()))
			}
		}
		return true
	})
}

// And an interface value (or nil) assigned with other values to an empty
// interface (`x, v = 4, z` with v and z of type any, even `v, w = z, z`)
// stops the function the same way, silently. A nil for another type is
// rewritten above; this case is split, when every destination is a plain
// name (so Go evaluates nothing on the left first): `{ strata_m0,
// strata_m1 := 4, z; x = strata_m0; v = strata_m1 }`, which declares the
// values as yaegi handles right, then assigns them one by one. Other
// destinations, such assignments where only a simple statement fits (a
// for, if or switch header) and those in text another lowering copies are
// routed (unsupported.go).

// anyMultiAssign reports whether as is an `=` of several values that
// gives an interface value or nil to an empty interface.
func (a *analysis) anyMultiAssign(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, l := range as.Lhs {
		dst, ok := under(a.info.TypeOf(l)).(*types.Interface)
		if !ok || dst.NumMethods() != 0 {
			continue
		}
		if tv, ok := a.info.Types[as.Rhs[i]]; ok && (tv.IsNil() || tv.Type != nil && types.IsInterface(tv.Type)) {
			return true
		}
	}
	return false
}

// splittableAssign reports whether every destination of as is a name.
func splittableAssign(as *ast.AssignStmt) bool {
	for _, l := range as.Lhs {
		if _, ok := l.(*ast.Ident); !ok {
			return false
		}
	}
	return true
}

// splitAnyAssigns returns the edits that split the anyMultiAssign
// statements of statement lists, and reports the ones it split.
func (a *analysis) splitAnyAssigns(off func(token.Pos) int) ([]edit, map[*ast.AssignStmt]bool) {
	var edits []edit
	split := map[*ast.AssignStmt]bool{}
	moved := a.movedExprs()
	list := func(stmts []ast.Stmt) {
		for _, st := range stmts {
			as, ok := st.(*ast.AssignStmt)
			if !ok || !a.anyMultiAssign(as) || !splittableAssign(as) || inAny(as, moved) {
				continue
			}
			split[as] = true
			var tmps, assigns []string
			for i, l := range as.Lhs {
				if id := l.(*ast.Ident); id.Name == "_" {
					tmps = append(tmps, "_")
				} else {
					name := fmt.Sprintf("strata_m%d", i)
					tmps = append(tmps, name)
					assigns = append(assigns, fmt.Sprintf("%s = %s; ", id.Name, name))
				}
			}
			edits = append(edits,
				edit{off: off(as.Pos()), del: off(as.Rhs[0].Pos()) - off(as.Pos()), text: "{ " + strings.Join(tmps, ", ") + " := "},
				edit{off: off(as.End()), text: "; " + strings.Join(assigns, "") + "}"})
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if stmts, ok := stmtList(n); ok {
			list(stmts)
		}
		return true
	})
	return edits, split
}
