package interp

import (
	"go/ast"
	"go/token"
)

// yaegi takes `break L` inside a select for a break out of the select
// alone: `L: for { select { case <-done: break L } }` loops forever (the
// run times out; corpus k9_goroutines_select). A labeled break that
// crosses a select becomes a goto to a label placed right after the
// labeled statement, on its closing line, which is what break L means.

// lowerSelectBreaks returns the edits for every such break in the file.
func (a *analysis) lowerSelectBreaks(off func(token.Pos) int) []edit {
	var edits []edit
	for _, decl := range a.file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		edits = append(edits, selectBreaks(fn.Body, off)...)
	}
	// Function literals have labels of their own; selectBreaks walks into
	// them with a fresh scope.
	return edits
}

func selectBreaks(body *ast.BlockStmt, off func(token.Pos) int) []edit {
	labeled := map[string]*ast.LabeledStmt{}
	var edits []edit
	placed := map[string]bool{}
	var walk func(n ast.Node, selects int, depth map[string]int)
	walk = func(n ast.Node, selects int, depth map[string]int) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				edits = append(edits, selectBreaks(c.Body, off)...)
				return false
			case *ast.LabeledStmt:
				labeled[c.Label.Name] = c
				inner := map[string]int{}
				for k, v := range depth {
					inner[k] = v
				}
				inner[c.Label.Name] = selects
				walk(c, selects, inner)
				return false
			case *ast.SelectStmt:
				walk(c, selects+1, depth)
				return false
			case *ast.BranchStmt:
				if c.Tok != token.BREAK || c.Label == nil {
					return true
				}
				at, ok := depth[c.Label.Name]
				ls := labeled[c.Label.Name]
				if !ok || ls == nil || selects == at && !isSelect(ls.Stmt) {
					return true
				}
				name := "strata_break_" + c.Label.Name
				edits = append(edits, edit{off: off(c.Pos()), del: off(c.End()) - off(c.Pos()), text: "goto " + name})
				if !placed[name] {
					placed[name] = true
					edits = append(edits, edit{off: off(ls.End()), text: "; " + name + ": ;"})
				}
			}
			return true
		})
	}
	walk(body, 0, map[string]int{})
	return edits
}

func isSelect(s ast.Stmt) bool { _, ok := s.(*ast.SelectStmt); return ok }
