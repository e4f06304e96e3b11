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
// clear) into Go 1.22 it runs, within the same lines (see rewrite.go), so
// every position stays the block's own.

// canLowerRangeInt reports whether `for ... range n` over an integer can be
// rewritten: a declared loop variable or none.
func (a *analysis) canLowerRangeInt(n *ast.RangeStmt) bool {
	return n.Value == nil && (n.Key == nil || n.Tok == token.DEFINE)
}

// lowerRangeInt turns `for i := range n {` into
// `for i, strata_n := T(0), T(n); i < strata_n; i++ {` (n evaluated once, i of
// n's type as Go says), and `for range n` into the same with a hidden i.
func (a *analysis) lowerRangeInt(n *ast.RangeStmt, off func(token.Pos) int, src string) []edit {
	tv, ok := a.info.Types[n.X]
	if !ok || tv.Type == nil {
		return nil
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || !a.canLowerRangeInt(n) {
		return nil
	}
	t := types.Default(tv.Type)
	ts := types.TypeString(t, a.qualifier())
	if typeNeedsMissingImport(ts) {
		return nil
	}
	key := "strata_i"
	if n.Key != nil {
		key = n.Key.(*ast.Ident).Name
		if key == "_" {
			key = "strata_i"
		}
	}
	x := src[off(n.X.Pos()):off(n.X.End())]
	head := fmt.Sprintf("for %s, strata_n := %s(0), %s(%s); %s < strata_n; %s++ ", key, ts, ts, x, key, key)
	return []edit{{off: off(n.For), del: off(n.Body.Lbrace) - off(n.For), text: head}}
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
	var args []string
	for _, arg := range call.Args {
		args = append(args, ts+"("+text(arg)+")")
	}
	start, end := a.fset.Position(call.Pos()).Offset, a.fset.Position(call.End()).Offset
	return []edit{{off: start, del: end - start, text: fn + "(" + strings.Join(args, ", ") + ")"}}, true
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
