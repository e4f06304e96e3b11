package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi v0.16 never writes a map element that a call's several results
// are assigned to: after `m[k], err = parse(s)` the map was unchanged
// (corpus adv4_map_multi_assign). Results received into fresh variables
// first, and then assigned, are written: the statement becomes
// `{ strata_m0, strata_m1 := parse(s); m[k], err = strata_m0, strata_m1 }`
// on its own line. The destinations' text moves after the call, so they
// must have no calls or receives (movableDest): Go evaluates the index
// operands before the assignments either way, and nothing else between.

// mapMultiAssigns returns the edits for such statements of a statement
// list; a statement another edit touches inside its destinations is left.
func (a *analysis) mapMultiAssigns(src string, others []edit, off func(token.Pos) int) []edit {
	var out []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		stmts, ok := stmtList(n)
		if !ok {
			return true
		}
		for _, st := range stmts {
			as, ok := st.(*ast.AssignStmt)
			if !ok || !a.mapMultiAssign(as) || !a.mapMultiLowerable(as) {
				continue
			}
			from, to := off(as.Lhs[0].Pos()), off(as.Rhs[0].Pos())
			clash := false
			for _, o := range others {
				// An insertion at the statement's start (a line mark) lands
				// in front of the replacement; anything else inside is lost.
				if o.off > from && o.off < to || o.del > 0 && o.off < to && o.off+o.del > from {
					clash = true
				}
			}
			if clash {
				continue
			}
			var tmps, lhs, rhs []string
			for i, l := range as.Lhs {
				if isBlank(l) {
					tmps = append(tmps, "_")
					continue
				}
				t := fmt.Sprintf("strata_m%d", i)
				tmps = append(tmps, t)
				lhs = append(lhs, src[off(l.Pos()):off(l.End())])
				rhs = append(rhs, t)
			}
			out = append(out,
				edit{off: from, del: to - from, text: "{ " + strings.Join(tmps, ", ") + " := "},
				edit{off: off(as.Rhs[0].End()), text: "; " + strings.Join(lhs, ", ") + " = " + strings.Join(rhs, ", ") + " }"})
		}
		return true
	})
	return out
}

// assignsMapElem reports whether one of lhs is an element of a map.
func (a *analysis) assignsMapElem(lhs []ast.Expr) bool {
	for _, l := range lhs {
		ix, ok := ast.Unparen(l).(*ast.IndexExpr)
		if !ok {
			continue
		}
		if _, isMap := under(a.info.TypeOf(ix.X)).(*types.Map); isMap {
			return true
		}
	}
	return false
}

// mapMultiAssign reports whether as assigns a call's results to a map
// element among several destinations.
func (a *analysis) mapMultiAssign(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
		return false
	}
	_, call := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	return call && a.assignsMapElem(as.Lhs)
}

// mapMultiLowerable reports whether mapMultiAssigns can move as's
// destinations after its call: none has a call or receive, and the call
// starts on the destinations' line.
func (a *analysis) mapMultiLowerable(as *ast.AssignStmt) bool {
	for _, l := range as.Lhs {
		if !isBlank(l) && !a.movableDest(l) {
			return false
		}
	}
	return a.fset.Position(as.Lhs[0].Pos()).Line == a.fset.Position(as.Rhs[0].Pos()).Line
}

// mapMultiAssignsLeft reports the statements of that shape the kernel
// cannot rewrite: in an if, for or switch header, or with destinations it
// cannot move.
func (a *analysis) mapMultiAssignsLeft(at func(token.Pos, string, ...any)) {
	inList := map[ast.Stmt]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if stmts, ok := stmtList(n); ok {
			for _, st := range stmts {
				inList[st] = true
			}
		}
		return true
	})
	ast.Inspect(a.file, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		switch {
		case a.mapMultiAssign(as) && (!inList[as] || !a.mapMultiLowerable(as)):
			at(as.Pos(), "a call's results assigned to a map element among several destinations, in a header or with a destination the kernel cannot move: the kernel's interpreter (yaegi) never writes the map element")
		case as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 && a.assignsMapElem(as.Lhs) && commaOkForm(as.Rhs[0]):
			at(as.Pos(), "a comma-ok map index, type assertion or receive assigned to a map element (m[k], ok = …): the kernel's interpreter (yaegi) never writes the map element")
		}
		return true
	})
}

// commaOkForm reports whether e is a map index, type assertion or receive:
// the right-hand sides that give a second, ok value.
func commaOkForm(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return e.Op == token.ARROW
	}
	return false
}
