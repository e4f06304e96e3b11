package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi v0.16 fails to call a method promoted from an interface field that
// a struct embeds: with `type Service struct{ Logger; … }`, s.Log("x")
// panicked "invalid interface value {…}" at run time, while s.Logger.Log("x")
// works (corpus adv4_promoted_iface_method). The kernel writes the path out:
// each embedded field the selection goes through is named, on the same
// line.

// promotedIfaceCalls returns the insertions that name the embedded fields
// of calls to methods promoted from an embedded interface. Calls that
// another edit replaces across are left as they are.
func (a *analysis) promotedIfaceCalls(others []edit, off func(token.Pos) int) []edit {
	var out []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		sel := a.info.Selections[se]
		if sel == nil || sel.Kind() != types.MethodVal || len(sel.Index()) < 2 {
			return true
		}
		path, ok := embeddedPath(sel)
		if !ok {
			return true
		}
		at := off(se.X.End())
		for _, o := range others {
			if o.del > 0 && o.off < at && o.off+o.del > at {
				return true
			}
		}
		out = append(out, edit{off: at, text: "." + strings.Join(path, ".")})
		return true
	})
	return out
}

// embeddedPath names the embedded fields a method selection goes through
// when the method is an interface's, an interface the last of them holds.
func embeddedPath(sel *types.Selection) ([]string, bool) {
	t := sel.Recv()
	idx := sel.Index()
	var names []string
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil, false
		}
		f := st.Field(i)
		names = append(names, f.Name())
		t = f.Type()
	}
	return names, types.IsInterface(t)
}
