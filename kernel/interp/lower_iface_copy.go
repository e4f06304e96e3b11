package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A value becomes an interface by copy in Go. yaegi v0.16 wraps a value of
// a block's type with methods together with the reflect.Value it was read
// from, so the interface aliases its source: a change to the variable, the
// range variable or the slice element afterwards showed through it, and
// the slot a call's result lands in is reused by the next call at that
// site, so `shapes = append(shapes, mk(w))` in a loop left every element the
// last one (corpus adv4_iface_copy). A pointer too: `accs = append(accs,
// &counters[i])` in a loop left every element pointing at the last counter,
// the &-expression's slot holding the last pointer (corpus
// adv4_iface_copy_ptr). Such a value stored in an `any` also reached fmt as
// yaegi's wrapper, printed as {0xc… {…}}.
//
// The kernel makes the copy itself: at each place such a value becomes an
// interface (an assignment, a declaration, an element of a composite
// literal, an append, a returned or sent value, an argument of a function
// the block declares, an explicit conversion), e becomes
// `func() I { strata_v := e; return strata_v }()`: strata_v is a fresh
// variable of the literal's own frame, which nothing changes later, and
// the value it returns is one yaegi hands fmt correctly. (An explicit
// I(strata_v) fails for a standard I such as fmt.Stringer: "reflect.Set:
// value of type struct {…} is not assignable".) Native functions get a copy
// already (reflect copies what it passes).

// ifaceWrap is one value to wrap: the expression's span and the interface.
type ifaceWrap struct {
	expr     ast.Expr
	pos, end token.Pos
	iface    string
	conv     string // the interface to convert the copy to, for a call's argument (see ifaceArgConv)
}

// ifaceCopies returns the values of the block's types with methods (and
// pointers to them) that become interfaces outside native calls.
func (a *analysis) ifaceCopies() []ifaceWrap {
	if a.pkg == nil {
		return nil
	}
	var out []ifaceWrap
	seen := map[ast.Expr]bool{}
	qual := a.qualifier()
	conv := a.ifaceArgConv()
	a.ifaceConversions(a.file, true, func(e ast.Expr, dst types.Type, _ bool, native *types.Func) {
		if native != nil || seen[e] || isTypeParam(dst) {
			return
		}
		t := a.info.TypeOf(e)
		if t == nil {
			return
		}
		n, own := a.ownNamed(t)
		if !own || !hasMethods(n) {
			return
		}
		ts := types.TypeString(dst, qual)
		if typeNeedsMissingImport(ts) {
			return
		}
		seen[e] = true
		out = append(out, ifaceWrap{expr: e, pos: e.Pos(), end: e.End(), iface: ts, conv: conv[e]})
	})
	return out
}

// ifaceCopyEdits are the edits of the wraps that no other edit's
// replacement cuts across: text inserted inside a span that another edit
// replaces would be lost or misplaced, so such a value keeps yaegi's
// behaviour.
func ifaceCopyEdits(wraps []ifaceWrap, others []edit, off func(token.Pos) int) []edit {
	var out []edit
	for _, w := range wraps {
		p, e := off(w.pos), off(w.end)
		if clashes(p, e, others) {
			continue
		}
		open, close := "func() "+w.iface+" { strata_v := ", "; return strata_v }()"
		if w.conv != "" {
			open, close = w.conv+"("+open, close+")"
		}
		out = append(out, edit{off: p, text: open}, edit{off: e, text: close})
	}
	return out
}
