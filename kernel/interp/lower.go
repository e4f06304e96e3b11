package interp

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Lowering rewrites Go newer than yaegi's (range over an integer, min, max,
// clear), and forms of range yaegi runs wrongly, into Go 1.22 it runs, within the same lines (see rewrite.go), so
// every position stays the block's own.

// Three forms of range are lowered (lowerRange), all within the header's
// line and the body's first line:
//
//   - over an integer: yaegi (Go 1.22) lacks it;
//   - over a pointer to an array: yaegi v0.16 writes the array into a
//     neighbouring frame slot, so after `for i := range p` the variable p
//     holds the array itself (fmt prints [a b], not &[a b], and p[i] fails
//     "reflect: call of reflect.Value.Elem on array Value"), and with `=`
//     the key variable gets the array (corpus adv2_range_ptr_array). Without
//     a value it is a range over len(p), which Go does not evaluate
//     further either (a nil p loops len times); with one, over (*p)[:],
//     which reads the same array as it goes and panics on a nil p as Go
//     does;
//   - with assigned loop variables (`for i = range s`, `for k, v = range
//     m`): yaegi never writes the outer variables, so after the loop they
//     keep their values from before it, where Go leaves the last
//     iteration's (or the one a break left). The loop declares
//     strata_k/strata_v instead and the body's first statement assigns
//     them, as Go does at each iteration's start (corpus
//     adv2_range_assigned). The destinations are moved as text, so only
//     movableDest ones are lowered; unsupported.go routes the others.

// rangeAssigns reports whether a range statement assigns to variables that
// exist before it (`=` with a destination other than _).
func rangeAssigns(n *ast.RangeStmt) bool {
	return n.Tok == token.ASSIGN && (!isBlank(n.Key) || !isBlank(n.Value))
}

// rangeDestsMovable reports whether an assigning range's destinations can
// be moved into its body (see movableDest).
func (a *analysis) rangeDestsMovable(n *ast.RangeStmt) bool {
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if !isBlank(e) && !a.movableDest(e) {
			return false
		}
	}
	return true
}

// isBlank reports whether e is absent or the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return e == nil || ok && id.Name == "_"
}

// ptrToArray reports whether t is a pointer to an array.
func ptrToArray(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, ok = p.Elem().Underlying().(*types.Array)
	return ok
}

// plainOperand reports whether e is a name, a field of one (x.p, x.y.p),
// or such an operand parenthesized, dereferenced or addressed: an
// expression without calls or receives that no other rewrite edits.
func plainOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return plainOperand(e.X)
	case *ast.ParenExpr:
		return plainOperand(e.X)
	case *ast.StarExpr:
		return plainOperand(e.X)
	case *ast.UnaryExpr:
		return e.Op == token.AND && plainOperand(e.X)
	}
	return false
}

// stringRangeByIndex reports whether n ranges over a string with a byte
// index: with a rune too, yaegi v0.16 advances the index by the decoded
// rune's length, so after an invalid byte (decoded as U+FFFD, 3 bytes
// long, but 1 byte wide) every later index is off (corpus
// adv2_strings_invalid_utf8: Go 0:97 1:65533 2:98, yaegi 0:97 1:65533
// 4:98); with the index alone, it counts runes (`for i := range "héllo"`
// gave 0 1 2 3 4 for Go's 0 1 3 4 5; corpus adv4_string_range_key). The
// runes alone are right.
func (a *analysis) stringRangeByIndex(n *ast.RangeStmt) bool {
	if isBlank(n.Key) {
		return false
	}
	b, ok := a.info.TypeOf(n.X).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// lowerStringRange turns `for i, r := range s {` into a loop that decodes
// each rune natively: `for strata_s, strata_j, strata_w := s, 0, 0; strata_j
// < len(strata_s); strata_j += strata_w { var strata_r rune; strata_r,
// strata_w = strata_rt.DecodeRune(…); i, r := strata_j, strata_r;` (s
// evaluated once; i and r declared in the body, so each iteration has its
// own and the body changing them does not move the loop). An assigning
// range declares strata_k, strata_v there and assigns lhs from them.
func (a *analysis) lowerStringRange(n *ast.RangeStmt, off func(token.Pos) int, lhs, rhs []string) []edit {
	k, v := "strata_k", "strata_v"
	if n.Tok == token.DEFINE {
		k = n.Key.(*ast.Ident).Name
		if !isBlank(n.Value) {
			v = n.Value.(*ast.Ident).Name
		}
	}
	if isBlank(n.Value) {
		v = "_"
	}
	body := fmt.Sprintf(" var strata_r rune; strata_r, strata_w = %s.DecodeRune(string(strata_s[strata_j:])); %s, %s := strata_j, strata_r;", rtAlias, k, v)
	if len(lhs) > 0 {
		body += " " + rangeAssignText(n, lhs, rhs)
	}
	return []edit{
		{off: off(n.For), del: off(n.X.Pos()) - off(n.For), text: "for strata_s, strata_j, strata_w := "},
		{off: off(n.X.End()), del: off(n.Body.Lbrace) - off(n.X.End()), text: ", 0, 0; strata_j < len(strata_s); strata_j += strata_w "},
		{off: off(n.Body.Lbrace) + 1, text: body},
	}
}

// rangeAssignText is the statement that gives an assigning range's
// destinations their values: one assignment per destination when all are
// names (yaegi stops at `k, v = strata_k, strata_v` when v is an any; see
// splitAnyAssigns), else one assignment of them all, which keeps Go's
// order for destinations with indexes.
func rangeAssignText(n *ast.RangeStmt, lhs, rhs []string) string {
	names := true
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if _, ok := e.(*ast.Ident); e != nil && !ok {
			names = false
		}
	}
	if !names {
		return strings.Join(lhs, ", ") + " = " + strings.Join(rhs, ", ") + ";"
	}
	var b strings.Builder
	for i := range lhs {
		fmt.Fprintf(&b, "%s = %s; ", lhs[i], rhs[i])
	}
	return strings.TrimSuffix(b.String(), " ")
}

// lowerRange returns the edits for a range statement of a form yaegi gets
// wrong (see above), or none.
func (a *analysis) lowerRange(n *ast.RangeStmt, off func(token.Pos) int, src string) []edit {
	tv, ok := a.info.Types[n.X]
	if !ok || tv.Type == nil {
		return nil
	}
	assigns := rangeAssigns(n)
	if assigns && !a.rangeDestsMovable(n) {
		return nil // routed to compiled mode by unsupported
	}
	var edits []edit
	// The names the loop declares, for the destinations it assigns.
	var decl, lhs, rhs []string
	if assigns {
		for i, e := range []ast.Expr{n.Key, n.Value} {
			if isBlank(e) {
				decl = append(decl, "_")
				continue
			}
			name := []string{"strata_k", "strata_v"}[i]
			decl = append(decl, name)
			lhs = append(lhs, src[off(e.Pos()):off(e.End())])
			rhs = append(rhs, name)
		}
		if decl[len(decl)-1] == "_" {
			decl = decl[:len(decl)-1] // `strata_k, _ :=` needs no blank
		}
	}
	b, isBasic := tv.Type.Underlying().(*types.Basic)
	if a.stringRangeByIndex(n) {
		return a.lowerStringRange(n, off, lhs, rhs)
	}
	countOnly := isBasic && b.Info()&types.IsInteger != 0 || ptrToArray(tv.Type) && isBlank(n.Value)
	switch {
	case countOnly:
		// `for i := range n {` becomes `for i, strata_n := T(0), T(n); i <
		// strata_n; i++ {` (n evaluated once, i of n's type as Go says);
		// over a pointer to an array, n is len(p). n keeps its own edits.
		var t types.Type = types.Typ[types.Int]
		count, constLen := "(", false
		switch {
		case isBasic:
			t = types.Default(tv.Type)
		case plainOperand(n.X):
			// len(p) is a constant Go never evaluates p for, and yaegi
			// fails on a nil p ("reflect: call of reflect.Value.Len on zero
			// Value"): the array's length replaces p, whose text no
			// other edit touches.
			arr := tv.Type.Underlying().(*types.Pointer).Elem().Underlying().(*types.Array)
			count = fmt.Sprintf("(%d", arr.Len())
			constLen = true
		default:
			count = "(len("
		}
		ts := types.TypeString(t, a.qualifier())
		if typeNeedsMissingImport(ts) {
			return nil
		}
		key := "strata_i"
		switch {
		case assigns && !isBlank(n.Key):
			key = "strata_k"
		case n.Tok == token.DEFINE && !isBlank(n.Key):
			key = n.Key.(*ast.Ident).Name
		}
		head, tail := fmt.Sprintf("for %s, strata_n := %s(0), %s%s", key, ts, ts, count), fmt.Sprintf("%s; %s < strata_n; %s++ ", strings.Repeat(")", strings.Count(count, "(")), key, key)
		if constLen {
			edits = append(edits, edit{off: off(n.For), del: off(n.Body.Lbrace) - off(n.For), text: head + tail})
		} else {
			edits = append(edits,
				edit{off: off(n.For), del: off(n.X.Pos()) - off(n.For), text: head},
				edit{off: off(n.X.End()), del: off(n.Body.Lbrace) - off(n.X.End()), text: tail})
		}
	case ptrToArray(tv.Type):
		edits = append(edits, edit{off: off(n.X.Pos()), text: "(*("}, edit{off: off(n.X.End()), text: "))[:]"})
		fallthrough
	default:
		if assigns {
			edits = append(edits, edit{off: off(n.Key.Pos()), del: off(n.TokPos) + len(n.Tok.String()) - off(n.Key.Pos()), text: strings.Join(decl, ", ") + " :="})
		}
	}
	if len(lhs) > 0 {
		edits = append(edits, edit{off: off(n.Body.Lbrace) + 1, text: " " + rangeAssignText(n, lhs, rhs)})
	}
	return edits
}

// lowerBuiltin rewrites min, max and clear into function literals of the
// argument's type: min(a, b) is func(x T, ys ...T) T {…}(a, b). A constant
// min or max becomes its value. It reports false when the type cannot be
// written in the block's terms. text may be nil to only ask whether it can.
func (a *analysis) lowerBuiltin(call *ast.CallExpr, name string, text func(ast.Expr) string) ([]edit, bool) {
	if name != "min" && name != "max" && name != "clear" {
		return nil, true
	}
	tv, ok := a.info.Types[call]
	if name != "clear" && ok && tv.Value != nil && !typeNeedsMissingImport(types.TypeString(tv.Type, a.qualifier())) {
		if text == nil {
			return nil, true
		}
		return []edit{{off: a.fset.Position(call.Pos()).Offset, del: a.fset.Position(call.End()).Offset - a.fset.Position(call.Pos()).Offset, text: a.constText(tv)}}, true
	}
	var t types.Type
	if name == "clear" {
		if len(call.Args) != 1 {
			return nil, false
		}
		t = a.info.Types[call.Args[0]].Type
	} else {
		t = tv.Type
	}
	if t == nil {
		return nil, false
	}
	ts := types.TypeString(types.Default(t), a.qualifier())
	if typeNeedsMissingImport(ts) || strings.Contains(ts, "invalid type") {
		return nil, false
	}
	if text == nil {
		return nil, true
	}
	var fn string
	switch name {
	case "min", "max":
		cmp := "<"
		if name == "max" {
			cmp = ">"
		}
		// NaN wins, as with the builtins.
		fn = fmt.Sprintf("func(x %[1]s, ys ...%[1]s) %[1]s { for _, y := range ys { if y %[2]s x || y != y { x = y } }; return x }", ts, cmp)
	case "clear":
		switch u := t.Underlying().(type) {
		case *types.Map:
			// Natively: delete cannot remove a NaN key (k9c_nan_maps).
			fn = rtAlias + ".ClearMap"
		case *types.Slice:
			es := types.TypeString(u.Elem(), a.qualifier())
			if typeNeedsMissingImport(es) {
				return nil, false
			}
			fn = fmt.Sprintf("func(s %s) { var z %s; for i := range s { s[i] = z } }", ts, es)
		default:
			return nil, false // a type parameter: not lowered
		}
	}
	// The name becomes the function and each argument is converted in
	// place: replacing the whole call with its arguments' text lost the
	// edits made inside them (max(lo, min(x, hi)) came out garbled, "expected
	// ';'", corpus adv7_generic_constraints_ord).
	fun := call.Fun
	edits := []edit{{off: a.fset.Position(fun.Pos()).Offset, del: a.fset.Position(fun.End()).Offset - a.fset.Position(fun.Pos()).Offset, text: fn}}
	for _, arg := range call.Args {
		edits = append(edits, edit{off: a.fset.Position(arg.Pos()).Offset, text: ts + "("}, edit{off: a.fset.Position(arg.End()).Offset, text: ")"})
	}
	return edits, true
}

func (a *analysis) constText(tv types.TypeAndValue) string {
	s := tv.Value.ExactString()
	if tv.Value.Kind() == constant.Float {
		f, _ := constant.Float64Val(tv.Value)
		s = strconv.FormatFloat(f, 'g', -1, 64)
	}
	t := tv.Type
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t) // what the value would become: min(1, 2.5) is a float64
	}
	return types.TypeString(t, a.qualifier()) + "(" + s + ")"
}
