package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/stratahq/strata/kernel/protocol"
)

// unsupported finds valid Go that yaegi v0.16 would reject obscurely, crash
// on, or run with different semantics, and that rewrite.go cannot lower.
// Each diagnostic starts with NeedsCompiledPrefix and says what and why: the
// block runs compiled instead (see doc.go).
func (e *Executor) unsupported(a *analysis, filename string) []protocol.Diagnostic {
	var diags []protocol.Diagnostic
	at := func(pos token.Pos, format string, args ...any) {
		p := a.fset.Position(pos)
		diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column,
			Message: NeedsCompiledPrefix + fmt.Sprintf(format, args...)})
	}
	ownErrors := a.declaresErrorType()
	a.unexportedForReflection(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.embeddedForReflection(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.templateMethods(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.logFileFlags(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.nativeVariadicIfaces(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.moduleReflection(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.typeChecks(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.embeddedForeignIfaces(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.nestedOwnIfacePrints(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.ownIfaceIntoAny(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.mapMultiAssignsLeft(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.goroutineSelects(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.recursiveFuncTypes(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.initOrderDiffers(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.commaOkVarsInLoops(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.gotoCommaOks(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	a.funcPrints(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	moved := a.movedExprs()
	a.eachMultiAssignNil(func(id *ast.Ident, ts string) {
		switch {
		case typeNeedsMissingImport(ts):
			at(id.Pos(), "nil assigned with other values to a destination whose type this block cannot name: the kernel's interpreter (yaegi) stops the function at such an assignment, and rewriting it needs the type written out")
		case inAny(id, moved):
			at(id.Pos(), "nil assigned with other values inside a deferred function literal: the kernel's interpreter (yaegi) stops the function at such an assignment, and the kernel cannot rewrite code inside a deferred call")
		}
	})
	_, _, redeclared := a.lowerRedeclares(func(token.Pos) int { return 0 })
	for _, as := range redeclared {
		at(as.Pos(), "%s redeclares a variable inside a deferred call or a go statement's arguments, or with a value of a type this block cannot name: the kernel's interpreter (yaegi) makes the redeclared name a new variable, so a closure, a pointer or a named result would keep the old one, and the kernel cannot rewrite it there", types.ExprString(as.Lhs[0])+", …")
	}
	_, _, stuck := a.operatorParens(func(token.Pos) int { return 0 })
	structLits := map[ast.Expr]bool{}
	for _, e := range a.structLitAssigns() {
		structLits[e] = true
	}
	for _, e := range stuck {
		if structLits[e] {
			at(e.Pos(), "%s, a struct literal assigned to a name inside a deferred function literal: the kernel's interpreter (yaegi) puts such a literal in a new place instead of setting the variable, so a pointer to it, a closure that captured it or a named result keep the old value, and the kernel cannot rewrite code inside a deferred call", types.ExprString(e))
			continue
		}
		at(e.Pos(), "%s inside a deferred function literal: the kernel's interpreter (yaegi) stops the function when it writes such a value (an operator's result into an interface, or one of several values assigned at once), and the kernel cannot rewrite code inside a deferred call", types.ExprString(e))
	}
	_, divs := a.constIntDivisions(func(token.Pos) int { return 0 })
	for _, e := range divs {
		at(e.expr.Pos(), "%s, a division of untyped constants %s: Go divides them exactly (integers as integers) whatever type the result takes, the kernel's interpreter (yaegi) divides them in the result's type (7 / 2 as a float64 is 3.5, not 3), and the kernel cannot rewrite it there", types.ExprString(e.expr), e.where)
	}
	_, cmps := a.constComparisons(func(token.Pos) int { return 0 })
	for _, e := range cmps {
		at(e.Pos(), "%s, a comparison of untyped constants beyond int64, inside a deferred call or a go statement's or min/max/clear's arguments: Go compares them exactly, the kernel's interpreter (yaegi) compares them wrapped to int64, and the kernel cannot replace it with its value there", types.ExprString(e))
	}
	_, zeroVars := a.hoistedZeroVars("", func(token.Pos) int { return 0 })
	for _, vs := range zeroVars {
		at(vs.Pos(), "package variable %s, declared without a value after an initializer that calls a function (in this file, or in a file before it by name), over several lines, in a file without imports or after another file's initializers: the kernel's interpreter (yaegi) sets it to its zero value where it is declared, erasing what earlier initializers stored in it, and the kernel moves such a declaration only from one line to after its own file's imports", vs.Names[0].Name)
	}
	_, prints := a.builtinPrints(func(token.Pos) int { return 0 })
	for _, c := range prints {
		at(c.Pos(), "%s inside a deferred call or a go statement's or min/max/clear's arguments: Go's print and println write to stderr, the kernel's interpreter (yaegi) writes them to stdout, and the kernel cannot rewrite the call there", types.ExprString(c.Fun))
	}
	_, shared := a.freshVarEdits(func(token.Pos) int { return 0 })
	for _, n := range shared {
		at(n.Pos(), "a variable of a comma-ok define, a type switch or a select case, captured by a function literal or addressed in a loop, where the kernel cannot give each iteration its own (inside a deferred call or a go statement's arguments, read by an else-if, in a clause with a label, or a comma-ok in a switch or for header): the kernel's interpreter (yaegi) keeps one such variable for every iteration, so each closure or pointer would see the last value")
	}
	a.ifaceSwitchCases(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	_, oks := a.commaOkZeros("", func(token.Pos) int { return 0 })
	for _, n := range oks {
		as := n.(*ast.AssignStmt)
		at(n.Pos(), "%s, a comma-ok that may fail, in a for, if or switch header that runs again and reads the value, inside a deferred call, or with a call or its own destination among the operands: Go sets the value to its zero value when it fails, the kernel's interpreter (yaegi) leaves the previous value, and the kernel rewrites it only as a statement of its own with plain operands", types.ExprString(as.Lhs[0])+", "+types.ExprString(as.Lhs[1])+" "+as.Tok.String()+" "+types.ExprString(as.Rhs[0]))
	}
	_, split := a.splitAnyAssigns(func(token.Pos) int { return 0 })
	ast.Inspect(a.file, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && a.anyMultiAssign(as) && !split[as] {
			at(as.Pos(), "an interface value assigned with other values to an empty interface (%s): the kernel's interpreter (yaegi) stops the function at such an assignment; it is rewritten into one assignment per name only where the destinations are names and a block can hold it (not in a for, if or switch header, nor inside a deferred call)", types.ExprString(as.Lhs[0])+", …")
		}
		return true
	})
	loopDefers := a.loopDeferFuncs()
	lowered := map[*ast.DeferStmt]bool{}
	for body, ok := range loopDefers {
		if ok {
			ast.Inspect(body, func(m ast.Node) bool {
				if _, lit := m.(*ast.FuncLit); lit {
					return false
				}
				if d, isDefer := m.(*ast.DeferStmt); isDefer {
					lowered[d] = true
				}
				return true
			})
		}
	}
	called := map[ast.Expr]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			called[ast.Unparen(c.Fun)] = true
		}
		return true
	})
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if a.inLoop(n) && !lowered[n] {
				at(n.Pos(), "defer inside a loop whose deferred calls may recover: the kernel's interpreter (yaegi) keeps one slot for every iteration's deferred call, and the kernel's own defer stack cannot run a call that recovers")
			}
		case *ast.CommClause:
			if as, ok := recvCase(n); ok && !a.recvCaseLowerable(as) {
				at(as.Pos(), "a select case that receives into %s: the kernel's interpreter (yaegi) loses values received by an assigning select case, and only destinations made of names, fields, indexes and *p are rewritten for it (`case v := <-c: dst = v` runs interpreted)", types.ExprString(as.Lhs[0]))
			}
		case *ast.TypeAssertExpr:
			if a.interfaceTarget(n.Type) {
				at(n.Type.Pos(), "type assertion to an interface with methods: the kernel's interpreter (yaegi) matches standard-library values against such interfaces wrongly")
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if a.interfaceTarget(e) {
						at(e.Pos(), "type switch case on an interface with methods: the kernel's interpreter (yaegi) matches standard-library values against such interfaces wrongly")
					}
				}
			}
		case *ast.SelectorExpr:
			if sel := a.info.Selections[n]; sel != nil && sel.Kind() == types.MethodVal && !called[n] && !types.IsInterface(sel.Recv()) {
				if named, ok := deref(sel.Recv()).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg() != a.pkg && !a.sourcePkg(named.Obj().Pkg().Path()) {
					at(n.Sel.Pos(), "method value %s of %s (a standard type's method not called on the spot): the kernel's interpreter (yaegi) fails to call it (reflect.Set: not assignable); a function literal calling %s runs interpreted", types.ExprString(n), types.TypeString(sel.Recv(), a.qualifier()), types.ExprString(n))
				}
			}
			if tv, ok := a.info.Types[n.X]; ok && tv.IsType() {
				if _, ok := a.info.Uses[n.Sel].(*types.Func); ok {
					at(n.Pos(), "method expression %s.%s: the kernel's interpreter (yaegi) calls it with the wrong arguments", types.ExprString(n.X), n.Sel.Name)
				}
			}
		case *ast.RangeStmt:
			if n.Value != nil && chanElems(a.info.TypeOf(n.X)) {
				at(n.X.Pos(), "range over a slice of channels with a value variable: the kernel's interpreter (yaegi) fails at run time (reflect: Value.Len on int); `for i := range cs { c := cs[i] … }` runs interpreted")
			}
			if rangeAssigns(n) && !a.rangeDestsMovable(n) {
				at(n.Key.Pos(), "a range that assigns to %s: the kernel's interpreter (yaegi) never writes a range's assigned (not declared) loop variables, so after the loop they would keep their values from before it; only destinations made of names, fields, indexes and *p are rewritten for it (`for i, v := range x { dst = v … }` runs interpreted)", types.ExprString(n.Key))
			}
			tv, ok := a.info.Types[n.X]
			if !ok || tv.Type == nil {
				break
			}
			if _, ok := tv.Type.Underlying().(*types.Signature); ok {
				at(n.X.Pos(), "range over a function (an iterator, Go 1.23): the kernel's interpreter (yaegi, Go 1.22) does not implement it")
			}
		case *ast.CallExpr:
			if why := a.formatProblem(n); why != "" {
				at(n.Pos(), "%s", why)
			}
			id, ok := ast.Unparen(n.Fun).(*ast.Ident)
			if !ok {
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && ownErrors {
					for _, name := range []string{"Is", "As", "Unwrap", "Join"} {
						if a.isFunc(sel.Sel, "errors", name) {
							at(sel.Pos(), "errors.%s with an error type the block declares: the kernel's interpreter (yaegi) hands such values to the errors package in a wrapper that hides their methods, so the answer would be wrong", name)
						}
					}
				}
				break
			}
			b, ok := a.info.Uses[id].(*types.Builtin)
			if !ok {
				break
			}
			switch b.Name() {
			case "min", "max", "clear":
				if _, ok := a.lowerBuiltin(n, b.Name(), nil); !ok {
					at(id.Pos(), "the builtin %s on a type this block cannot name: the kernel's interpreter (yaegi, Go 1.22) lacks %s, and rewriting the call needs the type written out", b.Name(), b.Name())
				}
			case "new":
				if len(n.Args) == 1 && !a.info.Types[n.Args[0]].IsType() {
					at(id.Pos(), "new with a value (new(expr), Go 1.26): the kernel's interpreter (yaegi, Go 1.22) only has new(T)")
				}
			}
		}
		return true
	})
	// Inferred type arguments that rewrite.go cannot write out: yaegi
	// infers single type parameters but mis-infers several at once.
	for id, inst := range a.info.Instances {
		if _, ok := a.typeArgsText(id, inst); !ok && a.inFile(id.Pos()) {
			at(id.Pos(), "calling %s without explicit type arguments: the kernel's interpreter (yaegi) infers several type parameters wrongly, and %s cannot be written out here", id.Name, instantiation(id.Name, inst))
		}
	}
	a.typedNilIfaces(func(pos token.Pos, format string, args ...any) { at(pos, format, args...) })
	diags = append(diags, a.loopVarProblems(filename)...)
	return diags
}

// declaresErrorType reports whether the block declares a type with an
// Error() string method.
func (a *analysis) declaresErrorType() bool {
	if a.pkg == nil {
		return false
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	scope := a.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if types.Implements(tn.Type(), errType) || types.Implements(types.NewPointer(tn.Type()), errType) {
			return true
		}
	}
	return false
}

func explicitlyInstantiated(f *ast.File, id *ast.Ident) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IndexExpr:
			if x.X == id || isSel(x.X, id) {
				found = true
			}
		case *ast.IndexListExpr:
			if x.X == id || isSel(x.X, id) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isSel(e ast.Expr, id *ast.Ident) bool {
	s, ok := e.(*ast.SelectorExpr)
	return ok && s.Sel == id
}

func instantiation(name string, inst types.Instance) string {
	var args []string
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		args = append(args, types.TypeString(inst.TypeArgs.At(i), func(p *types.Package) string { return p.Name() }))
	}
	return name + "[" + strings.Join(args, ", ") + "](...)"
}

// chanElems reports whether t is a slice or array (or pointer to an array)
// of channels.
func chanElems(t types.Type) bool {
	if t == nil {
		return false
	}
	var elem types.Type
	switch u := deref(t).Underlying().(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	default:
		return false
	}
	_, ok := elem.Underlying().(*types.Chan)
	return ok
}

// ifaceSwitchCases finds an expression switch on an interface value with a
// case of a concrete type (switch v { case 0: … } with v an any): yaegi
// v0.16 converts the value to the case's type and, when it holds another
// type or nil, fails at run time with "reflect.Value.Convert: value of type
// interface {} cannot be converted to type int" and no line, after part of
// the output (found by adversarial round 3).
func (a *analysis) ifaceSwitchCases(at func(token.Pos, string, ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		sw, ok := n.(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || !a.isInterface(sw.Tag) {
			return true
		}
		for _, st := range sw.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				tv := a.info.Types[e]
				if tv.Type == nil || tv.IsNil() || types.IsInterface(tv.Type) {
					continue
				}
				at(e.Pos(), "switch on an interface value (%s) with a case of type %s: the kernel's interpreter (yaegi) converts the value to the case's type and fails at run time when it holds another type", types.ExprString(sw.Tag), types.TypeString(tv.Type, a.qualifier()))
				return true
			}
		}
		return true
	})
}
