package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Each execution of a declaration makes new variables in Go, so closures
// and pointers made in a loop each keep their own. yaegi v0.16 keeps one
// variable for every execution of three kinds of declaration (corpus
// adv5_fresh_vars_loop):
//
//   - a comma-ok define, `v, ok := m[k]`, `t, ok := x.(T)`, `v, ok := <-c`
//     (a statement or an if header);
//   - a type switch's `x := v.(type)`;
//   - a select case's `case v := <-c:` or `case v, ok := <-c:`.
//
// Closures made in a loop then all saw the last iteration's value (a []func
// of handlers built in a type switch printed the last element for each),
// and so did pointers taken to them. Where such a variable is captured by a
// function literal or has its address taken inside a loop, the kernel
// gives each execution a variable of its own, on the same lines:
//
//	v, ok := m[k]      ->  strata_f0, strata_f1 := m[k]; v, ok := strata_f0, strata_f1
//	if v, ok := m[k]; ok {   ->  if v, ok := m[k]; ok { v, ok := v, ok;
//	case int:          ->  case int: { x := x; … }
//	case v := <-c:     ->  case v := <-c: { v := v; … }
//
// (a define of plain values makes new variables in yaegi too). What it
// cannot rewrite (a header other than an if's, text another lowering
// copies, an else-if reading the variable, a clause with a label, a
// comma-ok in a switch or for header) is routed to compiled mode by
// unsupported.

// freshVarEdits returns the edits that give such declarations new
// variables per execution, and the places it cannot rewrite.
func (a *analysis) freshVarEdits(off func(token.Pos) int) (edits []edit, stuck []ast.Node) {
	moved := a.movedExprs()
	n := 0
	fresh := func() string { n++; return fmt.Sprintf("strata_f%d", n-1) }
	inList := map[*ast.AssignStmt]bool{}
	ast.Inspect(a.file, func(node ast.Node) bool {
		if stmts, ok := stmtList(node); ok {
			for _, st := range stmts {
				if as, ok := st.(*ast.AssignStmt); ok {
					inList[as] = true
				}
			}
		}
		return true
	})
	ast.Inspect(a.file, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.AssignStmt:
			if !a.commaOkDefine(x) || !inList[x] || !a.inLoop(x) {
				return true
			}
			if !a.anyEscapes(x.Lhs, a.file) { // its uses are all in its scope
				return true
			}
			if inAny(x, moved) {
				stuck = append(stuck, x)
				return true
			}
			var tmp, names []string
			for _, l := range x.Lhs {
				if isBlank(l) {
					tmp = append(tmp, "_")
					continue
				}
				t := fresh()
				tmp = append(tmp, t)
				names = append(names, l.(*ast.Ident).Name)
				edits = append(edits, edit{off: off(l.Pos()), del: len(l.(*ast.Ident).Name), text: t})
			}
			var vals []string
			for _, t := range tmp {
				if t != "_" {
					vals = append(vals, t)
				}
			}
			edits = append(edits, edit{off: off(x.End()), text: "; " + strings.Join(names, ", ") + " := " + strings.Join(vals, ", ")})
		case *ast.IfStmt:
			as, ok := x.Init.(*ast.AssignStmt)
			if !ok || !a.commaOkDefine(as) || !a.inLoop(x) || !a.anyEscapes(as.Lhs, x) {
				return true
			}
			if inAny(x, moved) {
				stuck = append(stuck, as)
				return true
			}
			if elif, ok := x.Else.(*ast.IfStmt); ok && a.anyEscapes(as.Lhs, elif) {
				stuck = append(stuck, as)
				return true
			}
			redecl := " " + redeclare(as.Lhs)
			edits = append(edits, edit{off: off(x.Body.Lbrace) + 1, text: redecl})
			if b, ok := x.Else.(*ast.BlockStmt); ok {
				edits = append(edits, edit{off: off(b.Lbrace) + 1, text: redecl})
			}
		case *ast.SwitchStmt, *ast.ForStmt:
			// A comma-ok define in another header: not rewritten.
			var init ast.Stmt
			if sw, ok := x.(*ast.SwitchStmt); ok {
				init = sw.Init
			} else {
				init = x.(*ast.ForStmt).Init
			}
			if as, ok := init.(*ast.AssignStmt); ok && a.commaOkDefine(as) && a.inLoop(x) && a.anyEscapes(as.Lhs, x) {
				stuck = append(stuck, as)
			}
		case *ast.TypeSwitchStmt:
			if as, ok := x.Init.(*ast.AssignStmt); ok && a.commaOkDefine(as) && a.inLoop(x) && a.anyEscapes(as.Lhs, x) {
				stuck = append(stuck, as)
			}
			as, ok := x.Assign.(*ast.AssignStmt)
			if !ok || !a.inLoop(x) {
				return true
			}
			name := as.Lhs[0].(*ast.Ident).Name
			for _, c := range x.Body.List {
				cc := c.(*ast.CaseClause)
				obj := a.info.Implicits[cc]
				if obj == nil || !a.escapes(obj, cc) {
					continue
				}
				stuck, edits = a.wrapClause(cc.Colon, cc.Body, name+" := "+name+";", x, moved, off, stuck, edits)
			}
		case *ast.CommClause:
			as, ok := x.Comm.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || !a.inLoop(x) || !a.anyEscapes(as.Lhs, x) {
				return true
			}
			stuck, edits = a.wrapClause(x.Colon, x.Body, redeclare(as.Lhs), x, moved, off, stuck, edits)
		}
		return true
	})
	return edits, stuck
}

// wrapClause puts a clause's statements in a block that starts with decl.
func (a *analysis) wrapClause(colon token.Pos, body []ast.Stmt, decl string, at ast.Node, moved []ast.Expr, off func(token.Pos) int, stuck []ast.Node, edits []edit) ([]ast.Node, []edit) {
	labeled := false
	for _, st := range body {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.LabeledStmt); ok {
				labeled = true
			}
			return !labeled
		})
	}
	if labeled || inAny(at, moved) || len(body) == 0 {
		return append(stuck, at), edits
	}
	return stuck, append(edits,
		edit{off: off(colon) + 1, text: " { " + decl},
		edit{off: off(body[len(body)-1].End()), text: " }"})
}

// redeclare is `v, ok := v, ok;` for a define's names, blanks left out.
func redeclare(lhs []ast.Expr) string {
	var names []string
	for _, l := range lhs {
		if !isBlank(l) {
			names = append(names, l.(*ast.Ident).Name)
		}
	}
	return strings.Join(names, ", ") + " := " + strings.Join(names, ", ") + ";"
}

// commaOkDefine reports whether as is `v, ok := m[k]`, `:= x.(T)` or
// `:= <-c`.
func (a *analysis) commaOkDefine(as *ast.AssignStmt) bool {
	if as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return false
	}
	switch r := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr:
		t := a.info.TypeOf(r.X)
		if t == nil {
			return false
		}
		_, isMap := t.Underlying().(*types.Map)
		return isMap
	case *ast.TypeAssertExpr:
		return r.Type != nil
	case *ast.UnaryExpr:
		return r.Op == token.ARROW
	}
	return false
}

// anyEscapes reports whether one of the names lhs defines escapes in n.
func (a *analysis) anyEscapes(lhs []ast.Expr, n ast.Node) bool {
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && !isBlank(l) {
			if obj := a.info.Defs[id]; obj != nil && a.escapes(obj, n) {
				return true
			}
		}
	}
	return false
}

// escapes reports whether obj is used inside a function literal in n, or
// has its address taken there (&v, &v.f, a pointer method called on v).
func (a *analysis) escapes(obj types.Object, n ast.Node) bool {
	found := false
	uses := func(e ast.Node) bool {
		used := false
		ast.Inspect(e, func(m ast.Node) bool {
			if id, ok := m.(*ast.Ident); ok && a.info.Uses[id] == obj {
				used = true
			}
			return !used
		})
		return used
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if found {
			return false
		}
		switch x := m.(type) {
		case *ast.FuncLit:
			found = uses(x.Body)
			return false
		case *ast.UnaryExpr:
			if x.Op == token.AND && uses(x.X) {
				found = true
			}
		case *ast.SelectorExpr:
			if sel := a.info.Selections[x]; sel != nil && sel.Kind() == types.MethodVal {
				if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
						if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && a.info.Uses[id] == obj {
							found = true
						}
					}
				}
			}
		}
		return true
	})
	return found
}

// commaOkVarsInLoops reports `var v, ok = m[k]` (or `= x.(T)`, `= <-c`)
// inside a loop. yaegi keeps one pair of variables for every iteration and,
// when the look fails, leaves the previous iteration's value where Go has
// the zero value (1 true, then 1 false for a missing key; corpus
// adv5_comma_ok_var_decl); the := form is rewritten for both
// (lower_commaok.go and above), this one is routed to compiled mode.
func (a *analysis) commaOkVarsInLoops(at func(token.Pos, string, ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		ds, ok := n.(*ast.DeclStmt)
		if !ok {
			return true
		}
		gd, ok := ds.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return true
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 2 || len(vs.Values) != 1 || !a.inLoop(ds) {
			return true
		}
		as := &ast.AssignStmt{Lhs: []ast.Expr{vs.Names[0], vs.Names[1]}, Tok: token.DEFINE, Rhs: vs.Values}
		if a.commaOkDefine(as) {
			at(ds.Pos(), "var %s, %s = %s in a loop: the kernel's interpreter (yaegi) keeps one pair of variables for every iteration and leaves the previous value when the look fails, where Go has the zero value; `%s, %s := %s` runs interpreted", vs.Names[0].Name, vs.Names[1].Name, types.ExprString(vs.Values[0]), vs.Names[0].Name, vs.Names[1].Name, types.ExprString(vs.Values[0]))
		}
		return true
	})
}

// gotoCommaOks reports the comma-ok statements neither rewrite reaches: one
// that is a labeled statement (lower_commaok.go and freshVarEdits look at
// plain statements only), and one whose variables escape in a loop made
// with a backward goto (freshVarEdits looks at for and range loops), as
// well as type switch and select case variables escaping in such a loop. There
// yaegi left the previous value and shared it: `again: v, ok := m[i]` …
// `goto again` gave b false three times for a true, b true, false (corpus
// adv5_goto_comma_ok).
func (a *analysis) gotoCommaOks(at func(token.Pos, string, ...any)) {
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
	commaOk := func(as *ast.AssignStmt) bool {
		if as.Tok == token.DEFINE {
			return a.commaOkDefine(as)
		}
		cp := *as
		cp.Tok = token.DEFINE
		return a.commaOkDefine(&cp)
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			if as, ok := ls.Stmt.(*ast.AssignStmt); ok && commaOk(as) {
				at(as.Pos(), "a comma-ok statement with a label: the kernel's interpreter (yaegi) leaves the previous value when the look fails and keeps one variable for every execution, and the kernel rewrites only comma-ok statements without a label")
			}
			return true
		}
		inGotoLoop := func(x ast.Node) bool {
			if a.inLoop(x) {
				return false // rewritten by freshVarEdits
			}
			for _, g := range gotos {
				if p, ok := labels[a.info.Uses[g.Label]]; ok && p <= x.Pos() && x.End() <= g.Pos() {
					return true
				}
			}
			return false
		}
		const why = "in a loop made with goto: the kernel's interpreter (yaegi) keeps one variable for every execution, so each closure or pointer would see the last value, and the kernel rewrites it only in for and range loops"
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && a.commaOkDefine(x) && a.anyEscapes(x.Lhs, a.file) && inGotoLoop(x) {
				at(x.Pos(), "a comma-ok define whose variables a closure captures or whose address is taken, %s", why)
			}
		case *ast.TypeSwitchStmt:
			if _, ok := x.Assign.(*ast.AssignStmt); !ok || !inGotoLoop(x) {
				return true
			}
			for _, c := range x.Body.List {
				if obj := a.info.Implicits[c]; obj != nil && a.escapes(obj, c) {
					at(x.Pos(), "a type switch variable a closure captures or whose address is taken, %s", why)
					break
				}
			}
		case *ast.CommClause:
			if as, ok := x.Comm.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && a.anyEscapes(as.Lhs, x) && inGotoLoop(x) {
				at(as.Pos(), "a select case variable a closure captures or whose address is taken, %s", why)
			}
		}
		return true
	})
}
