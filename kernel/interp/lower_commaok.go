package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A comma-ok map index or type assertion that fails must leave the zero
// value in its value variable. yaegi v0.16 leaves whatever the variable
// held: after `v, ok = m["missing"]` v keeps its old value, and in a loop
// `c, ok := counts[w]` keeps the previous iteration's c, so the ordinary
// `c, _ := counts[w]; counts[w] = c + 1` counted a new word from the last
// one's count (corpus adv3_comma_ok_zero). ok itself is right.
//
// The statement is kept, and on the same line a second look writes the
// zero value when it failed:
//
//	v, ok := m[k]; if _, strata_ok := m[k]; !strata_ok { v = m[k] }
//	n, ok := x.(T); if _, strata_ok := x.(T); !strata_ok { n = *new(T) }
//
// (a failed single-valued index is the zero value, which yaegi gets
// right). The second look evaluates the operands again, so they must be
// free of calls and of the statement's own destinations; and it needs a
// statement of its own, or, for an if header's := that runs again (in a
// loop), the start of the if's body and else, when its condition does not
// read the value. A header's := that runs once declares zero variables,
// and in an if header whose condition is just ok and whose else does not
// read the value, the value is only read when the look succeeded: both
// are left as they are. Other cases are stuck: unsupported routes them to
// compiled mode.
func (a *analysis) commaOkZeros(src string, off func(token.Pos) int) (edits []edit, stuck []ast.Node) {
	moved := a.movedExprs()
	// A backward goto runs again what lies between its label and itself.
	labels := map[types.Object]token.Pos{}
	var gotos []*ast.BranchStmt
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			labels[a.info.Defs[n.Label]] = n.Pos()
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				gotos = append(gotos, n)
			}
		}
		return true
	})
	again := func(as *ast.AssignStmt) bool {
		for _, g := range gotos {
			if at, ok := labels[a.info.Uses[g.Label]]; ok && at <= as.Pos() && as.End() <= g.Pos() {
				return true
			}
		}
		return a.inLoop(as)
	}
	text := func(e ast.Expr) string { return src[off(e.Pos()):off(e.End())] }
	secondLook := func(as *ast.AssignStmt) (string, bool) {
		look, zero, writable, ok := a.commaOkLook(as, text)
		if !ok || !writable || inAny(as, moved) || !a.secondLookSafe(as) {
			return "", false
		}
		return "if _, strata_ok := " + look + "; !strata_ok { " + text(as.Lhs[0]) + " = " + zero + " }", true
	}
	fix := func(as *ast.AssignStmt, inList bool) {
		if _, _, _, ok := a.commaOkLook(as, text); !ok {
			return
		}
		look, ok := secondLook(as)
		if !inList || !ok {
			stuck = append(stuck, as)
			return
		}
		edits = append(edits, edit{off: off(as.End()), text: "; " + look})
	}
	// An if header's := declares fresh variables, zero unless the header
	// runs again (in a loop, or a function with goto): then the second
	// look goes first in the body and in the else, when the condition does
	// not read the value itself.
	ifHeader := func(n *ast.IfStmt) {
		as, ok := n.Init.(*ast.AssignStmt)
		if !ok {
			return
		}
		if _, _, _, ok := a.commaOkLook(as, text); !ok {
			return
		}
		if as.Tok == token.DEFINE && !again(as) || a.okOnlyIf(n) {
			return
		}
		v, isID := as.Lhs[0].(*ast.Ident)
		_, elseIf := n.Else.(*ast.IfStmt)
		look, ok := secondLook(as)
		if as.Tok != token.DEFINE || !isID || !ok || a.mentions(n.Cond, v) || (elseIf && a.mentions(n.Else, v)) {
			stuck = append(stuck, as)
			return
		}
		edits = append(edits, edit{off: off(n.Body.Lbrace) + 1, text: " " + look + ";"})
		if b, ok := n.Else.(*ast.BlockStmt); ok {
			edits = append(edits, edit{off: off(b.Lbrace) + 1, text: " " + look + ";"})
		}
	}
	list := func(stmts []ast.Stmt) {
		for _, st := range stmts {
			if as, ok := st.(*ast.AssignStmt); ok {
				fix(as, true)
			}
		}
	}
	header := func(init ast.Stmt) {
		if as, ok := init.(*ast.AssignStmt); ok && (as.Tok == token.ASSIGN || again(as)) {
			fix(as, false)
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if stmts, ok := stmtList(n); ok {
			list(stmts)
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			ifHeader(n)
		case *ast.SwitchStmt:
			header(n.Init)
		case *ast.TypeSwitchStmt:
			header(n.Init)
		case *ast.ForStmt:
			header(n.Init)
			header(n.Post)
		}
		return true
	})
	return edits, stuck
}

// commaOkLook reports whether as is `v, ok = m[k]` or `v, ok = x.(T)` (or
// :=) with a value destination, and returns the expression to look again
// and the zero value's text (writable is false when the type cannot be
// written here).
func (a *analysis) commaOkLook(as *ast.AssignStmt, text func(ast.Expr) string) (look, zero string, writable, ok bool) {
	if len(as.Lhs) != 2 || len(as.Rhs) != 1 || isBlank(as.Lhs[0]) {
		return "", "", false, false
	}
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr:
		t := a.info.Types[r.X].Type
		if t == nil {
			return "", "", false, false
		}
		if _, isMap := t.Underlying().(*types.Map); !isMap {
			return "", "", false, false
		}
		return text(r), text(r), true, true
	case *ast.TypeAssertExpr:
		if r.Type == nil {
			return "", "", false, false
		}
		t := a.info.Types[r.Type].Type
		if t == nil {
			return "", "", false, false
		}
		ts := types.TypeString(t, a.qualifier())
		return text(r), "*new(" + ts + ")", !typeNeedsMissingImport(ts), true
	}
	return "", "", false, false
}

// secondLookSafe reports whether looking again after the assignment
// reads the same map and key (or value): no calls, and none of the
// statement's destinations among the operands.
func (a *analysis) secondLookSafe(as *ast.AssignStmt) bool {
	var operands []ast.Expr
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr:
		operands = []ast.Expr{r.X, r.Index}
	case *ast.TypeAssertExpr:
		operands = []ast.Expr{r.X}
	}
	for _, e := range operands {
		if !a.relookable(e) {
			return false
		}
	}
	if !a.movableDest(as.Lhs[0]) {
		return false
	}
	dests := map[types.Object]bool{}
	for _, l := range as.Lhs {
		ast.Inspect(l, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := a.objectOf(id); obj != nil {
					dests[obj] = true
				}
			}
			return true
		})
	}
	clash := false
	for _, e := range operands {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && dests[a.objectOf(id)] {
				clash = true
			}
			return !clash
		})
	}
	return !clash
}

// relookable reports whether the second look may evaluate e again as
// written: a movableDest, or a composite literal of a named type (or an
// array of one) made of such (m[point{r, c}], the usual key of a grid;
// it was routed to compiled mode, corpus adv7_struct_state_machine).
func (a *analysis) relookable(e ast.Expr) bool {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return a.movableDest(e)
	}
	switch t := cl.Type.(type) {
	case *ast.Ident:
	case *ast.ArrayType:
		if _, named := t.Elt.(*ast.Ident); !named || t.Len == nil {
			return false
		}
	default:
		return false
	}
	return a.relookableElts(cl.Elts)
}

func (a *analysis) relookableElts(elts []ast.Expr) bool {
	for _, el := range elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if _, ok := kv.Key.(*ast.Ident); !ok {
				if _, ok := kv.Key.(*ast.BasicLit); !ok {
					return false
				}
			}
			el = kv.Value
		}
		if inner, ok := el.(*ast.CompositeLit); ok && inner.Type == nil {
			if !a.relookableElts(inner.Elts) {
				return false
			}
			continue
		}
		if !a.relookable(el) {
			return false
		}
	}
	return true
}

func (a *analysis) objectOf(id *ast.Ident) types.Object {
	if obj := a.info.Defs[id]; obj != nil {
		return obj
	}
	return a.info.Uses[id]
}

// mentions reports whether the object id names is used within n.
func (a *analysis) mentions(n ast.Node, id *ast.Ident) bool {
	if n == nil {
		return false
	}
	obj := a.objectOf(id)
	used := false
	ast.Inspect(n, func(m ast.Node) bool {
		if x, ok := m.(*ast.Ident); ok && a.info.Uses[x] == obj {
			used = true
		}
		return !used
	})
	return used
}

// okOnlyIf reports whether an if's init is a comma-ok whose value is read
// only when the look succeeded: the condition is just ok, and the else
// (if any) does not mention the value.
func (a *analysis) okOnlyIf(n *ast.IfStmt) bool {
	as, ok := n.Init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 {
		return false
	}
	okID, isID := as.Lhs[1].(*ast.Ident)
	cond, condID := ast.Unparen(n.Cond).(*ast.Ident)
	if !isID || !condID || okID.Name == "_" || a.objectOf(okID) != a.objectOf(cond) {
		return false
	}
	vID, isID := as.Lhs[0].(*ast.Ident)
	if !isID || n.Else == nil {
		return isID
	}
	v := a.objectOf(vID)
	used := false
	ast.Inspect(n.Else, func(m ast.Node) bool {
		if id, ok := m.(*ast.Ident); ok && a.info.Uses[id] == v {
			used = true
		}
		return !used
	})
	return !used
}
