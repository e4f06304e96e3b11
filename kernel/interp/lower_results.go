package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"
)

// yaegi v0.16 lets a function write its results straight into the slots
// its call site keeps in the caller's frame, and does not zero them when
// the function starts. From the second time one call site runs (a call in
// a loop), a function's named results start with what the previous call
// returned: `func sum(xs []int) (total int)` accumulated across calls, a
// bare `return` on a path that never assigned returned the previous value,
// and a recovered panic returned the previous call's results where Go
// returns zero values (corpus adv4_named_results_stale).
//
// Go zeroes named results at entry, so the kernel does: the first thing in
// the body (on the opening brace's line) sets each named result to its zero
// value. A function with unnamed results that may recover a panic returns
// its result slots as they are, so its results get names (strata_r0, ...)
// first; a blank named result (_) is renamed the same way.

// zeroResults returns the edits that zero every function's named results
// at entry, and name the results that need it.
func (a *analysis) zeroResults(off func(token.Pos) int) []edit {
	var edits []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		var recv *ast.FieldList
		switch f := n.(type) {
		case *ast.FuncDecl:
			ft, body, recv = f.Type, f.Body, f.Recv
		case *ast.FuncLit:
			ft, body = f.Type, f.Body
		default:
			return true
		}
		if body == nil || ft.Results == nil || len(ft.Results.List) == 0 {
			return true
		}
		named := len(ft.Results.List[0].Names) > 0
		if !named && !a.bodyMayRecover(body) {
			return true
		}
		var zero []string
		i := 0
		for _, field := range ft.Results.List {
			if !named {
				edits = append(edits, edit{off: off(field.Type.Pos()), text: fmt.Sprintf("strata_r%d ", i)})
				zero = append(zero, a.zeroStmt(fmt.Sprintf("strata_r%d", i), field.Type, recv, ft.Params, ft.Results))
				i++
				continue
			}
			for _, id := range field.Names {
				name := id.Name
				if name == "_" {
					name = fmt.Sprintf("strata_r%d", i)
					edits = append(edits, edit{off: off(id.Pos()), del: 1, text: name})
				}
				zero = append(zero, a.zeroStmt(name, field.Type, recv, ft.Params, ft.Results))
				i++
			}
		}
		if !named && !ft.Results.Opening.IsValid() {
			// func f() int  ->  func f() (strata_r0 int)
			t := ft.Results.List[0].Type
			edits = append(edits, edit{off: off(t.Pos()), text: "("}, edit{off: off(t.End()), text: ")"})
		}
		edits = append(edits, edit{off: off(body.Lbrace) + 1, text: " " + strings.Join(zero, " ")})
		return true
	})
	return edits
}

// zeroStmt sets result name to its zero value: `name = *new(T);` when T can
// be written in the function's scope, else through the kernel's runtime.
func (a *analysis) zeroStmt(name string, typ ast.Expr, names ...*ast.FieldList) string {
	tv, ok := a.info.Types[typ]
	if ok && tv.Type != nil {
		ts := types.TypeString(tv.Type, a.qualifier())
		if !typeNeedsMissingImport(ts) && !shadowsTypeName(ts, names...) {
			return fmt.Sprintf("%s = *new(%s);", name, ts)
		}
	}
	return fmt.Sprintf("%s.Zero(&%s);", rtAlias, name)
}

// shadowsTypeName reports whether a receiver, parameter or result has the
// name of an identifier in ts (func f(strings []string) (b strings.Builder)):
// inside the body, ts would then mean something else.
func shadowsTypeName(ts string, names ...*ast.FieldList) bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(ts, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		words[w] = true
	}
	for _, fl := range names {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				if words[id.Name] {
					return true
				}
			}
		}
	}
	return false
}

// bodyMayRecover reports whether one of body's own defer statements (not a
// nested function literal's) may recover a panic.
func (a *analysis) bodyMayRecover(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(x.Call.Fun).(*ast.FuncLit); ok {
				found = found || a.callsRecover(lit.Body)
			} else {
				found = found || a.mayRecover(x.Call)
			}
		}
		return !found
	})
	return found
}
