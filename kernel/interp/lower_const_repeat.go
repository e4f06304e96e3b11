package interp

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
)

// yaegi v0.16 counts iota wrong in a const group with a spec of several
// names: iota grows by one per name, not per spec, so after `a, b = iota,
// iota + 10` the next spec's iota is 2, not 1 (c, d = iota, iota + 10 gave
// 2 12 for Go's 1 11), a silent wrong answer; and a spec of several names
// that repeats the previous one implicitly (`g, h` after `e, f = iota,
// iota * 2`) fails to compile ("constant definition loop"; corpus
// adv7_iota_flags). In such a group the kernel writes every iota as its
// value (the spec's index, an untyped integer constant as iota is) and
// every implicit repetition out, as Go defines it, a copy of the previous
// values with that spec's iota: `g, h` becomes `g, h = 2, 2 * 2`, on its
// own line. Groups of single names are left as written: yaegi counts them
// right.

// constRepeats returns those edits for every const group of the file.
func (a *analysis) constRepeats(src string, off func(token.Pos) int) []edit {
	// A division of constants is replaced by its value (lower_constdiv.go):
	// an iota inside one goes with it.
	divs, _ := a.constIntDivisions(off)
	replaced := func(p int) bool {
		for _, d := range divs {
			if d.del > 0 && d.off <= p && p < d.off+d.del {
				return true
			}
		}
		return false
	}
	var edits []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		if gd, ok := n.(*ast.GenDecl); ok && gd.Tok == token.CONST {
			edits = append(edits, a.constGroupIotas(gd, src, off, replaced)...)
		}
		return true
	})
	return edits
}

func (a *analysis) constGroupIotas(gd *ast.GenDecl, src string, off func(token.Pos) int, replaced func(int) bool) []edit {
	multi := false
	for _, s := range gd.Specs {
		multi = multi || len(s.(*ast.ValueSpec).Names) > 1
	}
	if !multi {
		return nil
	}
	var edits []edit
	var last *ast.ValueSpec
	for i, s := range gd.Specs {
		vs := s.(*ast.ValueSpec)
		if len(vs.Values) > 0 {
			last = vs
			for _, id := range a.iotas(vs.Values) {
				if !replaced(off(id.Pos())) {
					edits = append(edits, edit{off: off(id.Pos()), del: len(id.Name), text: strconv.Itoa(i)})
				}
			}
			continue
		}
		if last == nil {
			continue
		}
		start, end := off(last.Values[0].Pos()), off(last.Values[len(last.Values)-1].End())
		values := src[start:end]
		ids := a.iotas(last.Values)
		sort.Slice(ids, func(x, y int) bool { return ids[x].Pos() > ids[y].Pos() })
		for _, id := range ids { // last first, so the offsets hold
			p := off(id.Pos()) - start
			values = values[:p] + strconv.Itoa(i) + values[p+len(id.Name):]
		}
		text := " = " + values
		if last.Type != nil {
			text = " " + src[off(last.Type.Pos()):off(last.Type.End())] + text
		}
		edits = append(edits, edit{off: off(vs.Names[len(vs.Names)-1].End()), text: text})
	}
	return edits
}

// iotas returns the uses of the predeclared iota in exprs.
func (a *analysis) iotas(exprs []ast.Expr) []*ast.Ident {
	var out []*ast.Ident
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
				if c, ok := a.info.Uses[id].(*types.Const); ok && c.Pkg() == nil {
					out = append(out, id)
				}
			}
			return true
		})
	}
	return out
}
