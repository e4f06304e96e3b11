package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/stratahq/strata/kernel/protocol"
)

// The kernel rewrites block source before yaegi sees it, with one rule: an
// edit only inserts or replaces text within a line, never adds a line, so
// every line number yaegi reports is the block file's own.

// rtPath and rtAlias are the import path and name of the kernel's runtime
// package as blocks see it after rewriting.
const (
	rtPath  = "strata.dev/kernel/rt"
	rtAlias = "strata_rt"
)

type edit struct {
	off  int
	del  int // bytes replaced
	text string
}

// rewrite returns the source yaegi runs:
//   - `panic(v)` becomes `strata_rt.PanicAt(line, col, v)`, so a panic names its line;
//   - a `go` statement's function recovers panics and fails the run instead
//     of killing the kernel (yaegi cannot recover a panic in a goroutine);
//   - loop variables captured by closures get a per-iteration copy (Go 1.22
//     semantics; yaegi implements the older shared variable).
func (a *analysis) rewrite(src string) string { return a.rewriteWith(src, false) }

// rewriteWith optionally marks every statement with strata_rt.Line(n), for
// the slow replay that finds the exact line of a runtime panic.
func (a *analysis) rewriteWith(src string, lines bool) string {
	var edits []edit
	off := func(p token.Pos) int { return a.fset.Position(p).Offset }
	line := func(p token.Pos) int { return a.fset.Position(p).Line }
	col := func(p token.Pos) int { return a.fset.Position(p).Column }

	// The runtime import goes on the package clause's line.
	edits = append(edits, edit{off: off(a.file.Name.End()), text: fmt.Sprintf("; import %s %q", rtAlias, rtPath)})

	mark := func(stmts []ast.Stmt) {
		for _, st := range stmts {
			if _, isDecl := st.(*ast.DeclStmt); isDecl {
				continue
			}
			edits = append(edits, edit{off: off(st.Pos()), text: fmt.Sprintf("%s.Line(%d, %d); ", rtAlias, line(st.Pos()), col(st.Pos()))})
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if lines {
			switch n := n.(type) {
			case *ast.BlockStmt:
				mark(n.List)
			case *ast.CaseClause:
				mark(n.Body)
			case *ast.CommClause:
				mark(n.Body)
			}
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) == 1 {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
					edits = append(edits, edit{off: off(id.Pos()), del: len("panic") + 1,
						text: fmt.Sprintf("%s.PanicAt(%d, %d, ", rtAlias, line(n.Pos()), col(n.Pos()))})
				}
			}
		case *ast.GoStmt:
			guard := fmt.Sprintf("defer func() { %s.GoRecovered(recover(), %d, %d) }(); ", rtAlias, line(n.Pos()), col(n.Pos()))
			// GoEnter counts the goroutine before it starts, so the run can
			// wait for it to report a panic before returning a result.
			enter := edit{off: off(n.Pos()), text: rtAlias + ".GoEnter(); "}
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				edits = append(edits, enter, edit{off: off(lit.Body.Lbrace) + 1, text: " " + guard})
			} else if wrapped, ok := a.wrapGoCall(n); ok {
				// go f(x, y)  ->  go func(a0 T0, a1 T1) { guard; f(a0, a1) }(x, y)
				edits = append(edits, enter, edit{off: off(n.Call.Pos()), del: off(n.Call.End()) - off(n.Call.Pos()), text: wrapped(guard, func(e ast.Expr) string {
					return src[off(e.Pos()):off(e.End())]
				})})
			}
		case *ast.ForStmt:
			if n.Init != nil {
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					edits = append(edits, a.copyLoopVars(as.Lhs, n.Body, off)...)
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				edits = append(edits, a.copyLoopVars([]ast.Expr{n.Key, n.Value}, n.Body, off)...)
			}
		}
		return true
	})

	// Last offset first; at one offset, replacements before insertions, so
	// an inserted marker lands in front of the replaced text.
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].off != edits[j].off {
			return edits[i].off > edits[j].off
		}
		return edits[i].del > edits[j].del
	})
	out := src
	for _, e := range edits {
		out = out[:e.off] + e.text + out[e.off+e.del:]
	}
	return out
}

// copyLoopVars inserts `v := v;` at the top of the loop body for each loop
// variable a closure in the body captures and the body never assigns.
func (a *analysis) copyLoopVars(vars []ast.Expr, body *ast.BlockStmt, off func(token.Pos) int) []edit {
	captured := a.capturedLoopVars(vars, body)
	if len(captured) == 0 {
		return nil
	}
	var b strings.Builder
	for _, v := range captured {
		if a.assignedIn(v, body) {
			return nil // reported by loopVarProblems
		}
		fmt.Fprintf(&b, " %s := %s;", v.Name(), v.Name())
	}
	return []edit{{off: off(body.Lbrace) + 1, text: b.String()}}
}

func (a *analysis) capturedLoopVars(vars []ast.Expr, body *ast.BlockStmt) []*types.Var {
	var out []*types.Var
	for _, e := range vars {
		id, ok := e.(*ast.Ident)
		if !ok || id == nil || id.Name == "_" {
			continue
		}
		v, ok := a.info.Defs[id].(*types.Var)
		if !ok {
			continue
		}
		capturedHere := false
		ast.Inspect(body, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || capturedHere {
				return !capturedHere
			}
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				if u, ok := m.(*ast.Ident); ok && a.info.Uses[u] == v {
					capturedHere = true
				}
				return !capturedHere
			})
			return false
		})
		if capturedHere {
			out = append(out, v)
		}
	}
	return out
}

// assignedIn reports whether body assigns v or takes its address.
func (a *analysis) assignedIn(v *types.Var, body *ast.BlockStmt) bool {
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && a.info.Uses[id] == v
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if is(l) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}

// loopVarProblems reports closures capturing a loop variable that the body
// also changes: a per-iteration copy would change the program's meaning.
func (a *analysis) loopVarProblems(filename string) []protocol.Diagnostic {
	var diags []protocol.Diagnostic
	check := func(vars []ast.Expr, body *ast.BlockStmt) {
		for _, v := range a.capturedLoopVars(vars, body) {
			if a.assignedIn(v, body) {
				p := a.fset.Position(v.Pos())
				diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(
					"loop variable %s is captured by a closure and changed inside the loop: the kernel's interpreter (yaegi) shares one variable across iterations (pre-Go 1.22); copy it first (%s := %s) and capture the copy",
					v.Name(), v.Name()+"Copy", v.Name())})
			}
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				check(as.Lhs, n.Body)
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				check([]ast.Expr{n.Key, n.Value}, n.Body)
			}
		}
		return true
	})
	return diags
}

// wrapGoCall builds `func(a0 T0, ...) { guard; f(a0, ...) }(args...)` for
// `go f(args...)`, keeping Go's rule that arguments are evaluated at the go
// statement. It gives up (false) when an argument's type cannot be written
// in the block's own terms; such a goroutine's panic still only kills the
// kernel, which the supervisor reports and restarts.
func (a *analysis) wrapGoCall(g *ast.GoStmt) (func(guard string, text func(ast.Expr) string) string, bool) {
	qual := a.qualifier()
	call := g.Call
	if call.Ellipsis.IsValid() {
		return nil, false
	}
	var params []string
	for i, arg := range call.Args {
		tv, ok := a.info.Types[arg]
		if !ok || tv.Type == nil {
			return nil, false
		}
		t := types.Default(tv.Type)
		ts := types.TypeString(t, qual)
		if strings.Contains(ts, "invalid type") || strings.Contains(ts, "untyped") || typeNeedsMissingImport(ts) {
			return nil, false
		}
		params = append(params, fmt.Sprintf("strata_a%d %s", i, ts))
	}
	return func(guard string, text func(ast.Expr) string) string {
		var names, args []string
		for i, arg := range call.Args {
			names = append(names, fmt.Sprintf("strata_a%d", i))
			args = append(args, text(arg))
		}
		return fmt.Sprintf("func(%s) { %s%s(%s) }(%s)", strings.Join(params, ", "), guard, text(call.Fun), strings.Join(names, ", "), strings.Join(args, ", "))
	}, true
}

// qualifier writes package-qualified types with the names the block's own
// imports give them; a package the block does not import marks the type unwritable.
func (a *analysis) qualifier() types.Qualifier {
	names := map[string]string{}
	for _, imp := range a.file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if imp.Name != nil {
			names[path] = imp.Name.Name
		}
	}
	return func(p *types.Package) string {
		if p.Path() == a.file.Name.Name {
			return ""
		}
		if n, ok := names[p.Path()]; ok {
			return n
		}
		for _, imp := range a.file.Imports {
			if strings.Trim(imp.Path.Value, `"`) == p.Path() {
				return p.Name()
			}
		}
		return "\x00missing"
	}
}

// typeNeedsMissingImport reports whether ts, a type written with qualifier,
// names a package the block does not import.
func typeNeedsMissingImport(ts string) bool {
	return strings.Contains(ts, "\x00missing")
}
