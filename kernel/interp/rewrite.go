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
	// A column passed to the runtime carries the index of the block's file
	// above bit 20 (see fileColumn), so a panic in a helper file of a
	// block's package names that file.
	fileBits := 0
	for i, f := range a.files {
		if f == a.file {
			fileBits = i << colFileShift
		}
	}
	col := func(p token.Pos) int { return a.fset.Position(p).Column | fileBits }

	redeclared, redeclaredTails, _ := a.lowerRedeclares(off)
	edits = append(edits, redeclaredTails...) // before the parentheses: see lowerRedeclares
	edits = append(edits, redeclared...)
	openParens, closeParens, _ := a.operatorParens(off)
	edits = append(edits, closeParens...) // first: see operatorParens

	// The runtime import goes on the package clause's line.
	edits = append(edits, edit{off: off(a.file.Name.End()), text: fmt.Sprintf("; import %s %q", rtAlias, rtPath)})

	// Overlaid standard packages are imported from the kernel's own source,
	// under a name of their own: yaegi resolves a package name that its own
	// copy also uses (slices, maps) to that copy.
	for _, imp := range a.file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		if _, ok := overlays[path]; !ok || (imp.Name != nil && (imp.Name.Name == "_" || imp.Name.Name == ".")) {
			continue
		}
		name := path
		if imp.Name != nil {
			name = imp.Name.Name
			edits = append(edits, edit{off: off(imp.Name.Pos()), del: len(name), text: "strata_" + name})
			edits = append(edits, edit{off: off(imp.Path.Pos()), del: len(imp.Path.Value), text: fmt.Sprintf("%q", overlayPath(path))})
		} else {
			edits = append(edits, edit{off: off(imp.Path.Pos()), del: len(imp.Path.Value), text: fmt.Sprintf("strata_%s %q", name, overlayPath(path))})
		}
	}
	for id, obj := range a.info.Uses {
		if !a.inFile(id.Pos()) {
			continue
		}
		if pn, ok := obj.(*types.PkgName); ok {
			if _, ok := overlays[pn.Imported().Path()]; ok {
				edits = append(edits, edit{off: off(id.Pos()), del: len(id.Name), text: "strata_" + id.Name})
			}
		}
	}
	edits = append(edits, a.explicitTypeArgs(off)...)
	edits = append(edits, a.zeroResults(off)...)
	edits = append(edits, a.unnamedMethodParams(off)...)
	divEdits, _ := a.constIntDivisions(off)
	edits = append(edits, divEdits...)
	cmpEdits, _ := a.constComparisons(off)
	edits = append(edits, cmpEdits...)
	hoisted, _ := a.hoistedZeroVars(src, off)
	edits = append(edits, hoisted...)
	edits = append(edits, a.blankPkgVars(off)...)
	printEdits, _ := a.builtinPrints(off)
	edits = append(edits, printEdits...)
	okEdits, _ := a.commaOkZeros(src, off)
	edits = append(edits, okEdits...)
	// After the second looks: at the end of a comma-ok statement, the
	// fresh variables' declaration must come first.
	freshEdits, _ := a.freshVarEdits(off)
	edits = append(edits, freshEdits...)
	edits = append(edits, a.lowerSelectBreaks(off)...)
	edits = append(edits, a.lowerRecvAssigns(src, off)...)
	edits = append(edits, a.shiftConstTypes(off)...)
	edits = append(edits, a.constRepeats(src, off)...)
	edits = append(edits, a.multiAssignNils(off)...)
	splitEdits, _ := a.splitAnyAssigns(off)
	edits = append(edits, splitEdits...)
	bound := map[*ast.SelectorExpr]bool{}
	edits = append(edits, a.bindMethodValues(src, off, bound)...)
	deferEdits, deferCovered := a.lowerLoopDefers(src, off, bound)
	edits = append(edits, deferEdits...)

	// Before the statement marks, so a mark lands in front of the wrapper.
	edits = append(edits, a.codecErrorCalls(off, line, col)...)

	mark := func(stmts []ast.Stmt) {
		for _, st := range stmts {
			if _, isDecl := st.(*ast.DeclStmt); isDecl {
				continue
			}
			edits = append(edits, edit{off: off(st.Pos()), text: fmt.Sprintf("%s.Line(%d, %d); ", rtAlias, line(st.Pos()), col(st.Pos()))})
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if stmts, ok := stmtList(n); ok && lines {
			mark(stmts)
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && len(n.Rhs) == 1 && a.signedCount(n.Rhs[0]) {
				edits = append(edits, edit{off: off(n.Rhs[0].Pos()), text: rtAlias + ".ShiftCount(int64("}, edit{off: off(n.Rhs[0].End()), text: "))"})
			}
		case *ast.BinaryExpr:
			// x << s with a signed s: Go panics when s < 0, yaegi gave 0.
			if (n.Op == token.SHL || n.Op == token.SHR) && a.signedCount(n.Y) {
				edits = append(edits, edit{off: off(n.Y.Pos()), text: rtAlias + ".ShiftCount(int64("}, edit{off: off(n.Y.End()), text: "))"})
			}
			// a == b between interfaces: see interfaceEqual.
			// Also between an interface and a concrete value: yaegi said
			// false for shapes[0] == Sq{1} (k9c_nil_interfaces).
			if (n.Op == token.EQL || n.Op == token.NEQ) && (a.isInterface(n.X) && a.comparedValue(n.Y) || a.isInterface(n.Y) && a.comparedValue(n.X)) {
				not := ""
				if n.Op == token.NEQ {
					not = "!"
				}
				edits = append(edits,
					edit{off: off(n.X.Pos()), text: not + rtAlias + ".Eq("},
					edit{off: off(n.X.End()), del: off(n.Y.Pos()) - off(n.X.End()), text: ", "},
					edit{off: off(n.Y.End()), text: ")"})
			}
		case *ast.DeferStmt:
			// yaegi evaluates a deferred call's arguments when it runs, not
			// at the defer statement: evaluate them now into a closure.
			if len(n.Call.Args) > 0 && !a.inLoop(n) && !deferCovered[n] {
				if wrapped, ok := a.wrapDeferCall(n.Call); ok {
					edits = append(edits, edit{off: off(n.Call.Pos()), del: off(n.Call.End()) - off(n.Call.Pos()), text: wrapped(func(e ast.Expr) string {
						return src[off(e.Pos()):off(e.End())]
					})})
				}
			}
		case *ast.ExprStmt:
			if call, ok := n.X.(*ast.CallExpr); ok && a.endsProcess(call) {
				edits = append(edits, edit{off: off(n.Pos()), text: fmt.Sprintf("%s.Site(%d, %d); ", rtAlias, line(call.Pos()), col(call.Pos()))})
			}
		case *ast.CallExpr:
			if se, ok := n.Fun.(*ast.SelectorExpr); ok && len(n.Args) == 1 && a.isLoggerSetPrefix(se) {
				// l.SetPrefix(p)  ->  strata_rt.LoggerSetPrefix(l, p)
				edits = append(edits, edit{off: off(se.Pos()), text: rtAlias + ".LoggerSetPrefix("},
					edit{off: off(se.X.End()), del: off(n.Lparen) + 1 - off(se.X.End()), text: ", "})
			}
			if a.nativeCallee(n) {
				// A function literal handed straight to native code (wg.Go,
				// sync.OnceFunc, time.AfterFunc) is wrapped by yaegi over the
				// caller's live frame, so when it runs later it sees the
				// variables' last values. Made by an inner function call, it
				// is a closure over a snapshot of the frame, as Go intends.
				for _, arg := range n.Args {
					if lit, ok := arg.(*ast.FuncLit); ok {
						sig := src[off(lit.Type.Pos()):off(lit.Type.End())]
						edits = append(edits, edit{off: off(lit.Pos()), text: "func() " + sig + " { return "}, edit{off: off(lit.End()), text: " }()"})
					}
				}
			}
			if id, ok := n.Fun.(*ast.Ident); ok {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok {
					if ed, ok := a.lowerBuiltin(n, b.Name(), func(e ast.Expr) string { return src[off(e.Pos()):off(e.End())] }); ok {
						edits = append(edits, ed...)
					}
				}
			}
			if id, ok := n.Fun.(*ast.Ident); ok && len(n.Args) == 0 {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					// See Recovered in runtime_rt.go.
					edits = append(edits, edit{off: off(n.Pos()), text: rtAlias + ".Recovered("}, edit{off: off(n.End()), text: fmt.Sprintf(", %d, %d)", line(n.Pos()), col(n.Pos()))})
				}
			}
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
				if early := a.goArgsInCaller(n, lit, off); early != nil {
					edits = append(edits, early...)
				} else {
					edits = append(edits, a.goLitSnapshot(n, off)...)
				}
			} else if parts, ok := a.goCallParts(n); ok {
				// go f(x, y)  ->  func(a0 T0, a1 T1) { go func(a0 T0, a1 T1) { guard; f(a0, a1) }(a0, a1) }(x, y)
				// (the outer call evaluates x and y here; see goArgsInCaller)
				c := parts(guard, func(e ast.Expr) string { return src[off(e.Pos()):off(e.End())] })
				edits = append(edits, enter, edit{off: off(n.Pos()), del: off(n.Call.End()) - off(n.Pos()), text: c.inCaller()})
			}
		case *ast.ForStmt:
			if n.Init != nil {
				if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					edits = append(edits, a.copyLoopVars(as.Lhs, n.Body, off, false)...)
				}
			}
		case *ast.RangeStmt:
			edits = append(edits, a.lowerRange(n, off, src)...)
			// A lowered string range declares its variables in the body.
			if n.Tok == token.DEFINE && !a.stringRangeByIndex(n) {
				edits = append(edits, a.copyLoopVars([]ast.Expr{n.Key, n.Value}, n.Body, off, true)...)
			}
		}
		return true
	})

	// After every other edit, so a copy is left out where another edit
	// replaces text across it; before the opening parens, which then
	// enclose it (see operatorParens).
	copies := a.ifaceCopies()
	wrapped := map[ast.Expr]bool{}
	for _, w := range copies {
		wrapped[w.expr] = true
	}
	argEdits := ifaceArgEdits(a.ifaceArgConv(), wrapped, edits, off)
	edits = append(edits, ifaceCopyEdits(copies, edits, off)...)
	edits = append(edits, argEdits...)
	edits = append(edits, a.promotedIfaceCalls(edits, off)...)
	edits = append(edits, a.mapMultiAssigns(src, edits, off)...)
	edits = append(edits, a.loopFuncLits(edits, off)...)
	edits = append(edits, openParens...) // last: see operatorParens

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

// signedCount reports whether e is a shift count of a signed integer type
// that is not a constant (so it may be negative at run time).
func (a *analysis) signedCount(e ast.Expr) bool {
	tv, ok := a.info.Types[e]
	if !ok || tv.Type == nil || tv.Value != nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

// comparedValue reports whether e is a non-nil value (of any type) that
// == can compare with an interface.
func (a *analysis) comparedValue(e ast.Expr) bool {
	tv, ok := a.info.Types[e]
	return ok && tv.Type != nil && !tv.IsNil() && !tv.IsType()
}

// isInterface reports whether e is a non-nil expression of interface type.
func (a *analysis) isInterface(e ast.Expr) bool {
	tv, ok := a.info.Types[e]
	return ok && tv.Type != nil && !tv.IsNil() && types.IsInterface(tv.Type)
}

func (a *analysis) isFunc(id *ast.Ident, pkg, name string) bool {
	fn, ok := a.info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == pkg && fn.Name() == name
}

// explicitTypeArgs writes out the inferred type arguments of calls to
// generic functions with several type parameters (the block's own, or an
// overlay's such as maps.Clone): yaegi infers one type parameter but
// mis-infers several at once. Calls whose type arguments cannot be written
// in the block's terms are left; unsupported reports them.
func (a *analysis) explicitTypeArgs(off func(token.Pos) int) []edit {
	var edits []edit
	for id, inst := range a.info.Instances {
		if !a.inFile(id.Pos()) {
			continue
		}
		if text, ok := a.typeArgsText(id, inst); ok && text != "" {
			edits = append(edits, edit{off: off(id.End()), text: text})
		}
	}
	return edits
}

// typeArgsText is "[T1, T2]" for an inferred instance that needs them
// written, "" when none are needed, and false when they cannot be written.
func (a *analysis) typeArgsText(id *ast.Ident, inst types.Instance) (string, bool) {
	fn, ok := a.info.Uses[id].(*types.Func)
	if !ok || fn.Pkg() == nil || explicitlyInstantiated(a.file, id) {
		return "", true
	}
	// Written out for every call where possible: yaegi also fails to infer
	// one type parameter from a value of a native type (strings.Fields'
	// []string). Only several parameters make an unwritable call fatal.
	several := inst.TypeArgs.Len() >= 2
	if fn.Pkg() != a.pkg && !a.sourcePkg(fn.Pkg().Path()) {
		return "", true
	}
	qual := a.qualifier()
	var args []string
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		ts := types.TypeString(inst.TypeArgs.At(i), qual)
		if strings.Contains(ts, "invalid type") || typeNeedsMissingImport(ts) {
			return "", !several
		}
		args = append(args, ts)
	}
	return "[" + strings.Join(args, ", ") + "]", true
}

// inFile reports whether pos is in the file this analysis looks at.
func (a *analysis) inFile(pos token.Pos) bool { return a.fset.File(pos) == a.fset.File(a.file.Pos()) }

// endsProcess reports whether call is os.Exit or log.Fatal, Fatalf, Fatalln.
func (a *analysis) endsProcess(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln":
		return fn.Type().(*types.Signature).Recv() == nil
	}
	return false
}

// nativeCallee reports whether call runs a function the interpreter does not
// interpret: one from an imported package (or a method of its types).
func (a *analysis) nativeCallee(call *ast.CallExpr) bool {
	fn := a.callee(call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg() != a.pkg && !a.sourcePkg(fn.Pkg().Path())
}

func (a *analysis) callee(call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := a.info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := a.info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return a.callee(&ast.CallExpr{Fun: f.X})
	case *ast.IndexListExpr:
		return a.callee(&ast.CallExpr{Fun: f.X})
	}
	return nil
}

// copyLoopVars inserts `v := v;` at the top of the loop body for each loop
// variable that outlives its iteration: captured by a closure, or its
// address taken (&v, a pointer method value). In a range loop the copy is
// exactly Go 1.22's per-iteration variable, whatever the body does with it;
// in a three-clause loop a body that changes the variable would no longer
// change the loop's, so such a loop is left (loopVarProblems reports it).
func (a *analysis) copyLoopVars(vars []ast.Expr, body *ast.BlockStmt, off func(token.Pos) int, isRange bool) []edit {
	var b strings.Builder
	for _, v := range a.escapingLoopVars(vars, body) {
		if !isRange && a.assignedIn(v, body) {
			return nil // reported by loopVarProblems
		}
		fmt.Fprintf(&b, " %s := %s;", v.Name(), v.Name())
	}
	if b.Len() == 0 {
		return nil
	}
	return []edit{{off: off(body.Lbrace) + 1, text: b.String()}}
}

// escapingLoopVars are the loop variables a closure captures or whose
// address the body takes.
func (a *analysis) escapingLoopVars(vars []ast.Expr, body *ast.BlockStmt) []*types.Var {
	captured := map[*types.Var]bool{}
	for _, v := range a.capturedLoopVars(vars, body) {
		captured[v] = true
	}
	var out []*types.Var
	for _, e := range vars {
		id, ok := e.(*ast.Ident)
		if !ok || id == nil || id.Name == "_" {
			continue
		}
		if v, ok := a.info.Defs[id].(*types.Var); ok && (captured[v] || a.addressTaken(v, body)) {
			out = append(out, v)
		}
	}
	return out
}

// addressTaken reports whether body takes v's address: &v, &v.f, &v[i] of
// an array, or a method value with a pointer receiver (v.M, not called).
func (a *analysis) addressTaken(v *types.Var, body *ast.BlockStmt) bool {
	root := func(e ast.Expr) bool {
		for {
			switch x := ast.Unparen(e).(type) {
			case *ast.Ident:
				return a.info.Uses[x] == v
			case *ast.SelectorExpr:
				if s := a.info.Selections[x]; s == nil || s.Kind() != types.FieldVal || s.Indirect() {
					return false
				}
				e = x.X
			case *ast.IndexExpr:
				if _, ok := a.info.TypeOf(x.X).Underlying().(*types.Array); !ok {
					return false
				}
				e = x.X
			default:
				return false
			}
		}
	}
	called := map[ast.Expr]bool{}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			called[ast.Unparen(n.Fun)] = true
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && root(n.X))
		case *ast.SelectorExpr:
			if s := a.info.Selections[n]; s != nil && s.Kind() == types.MethodVal && !called[n] && root(n.X) {
				if fn, ok := s.Obj().(*types.Func); ok {
					if r := fn.Type().(*types.Signature).Recv(); r != nil {
						if _, ptr := r.Type().(*types.Pointer); ptr {
							if _, already := v.Type().Underlying().(*types.Pointer); !already {
								found = true
							}
						}
					}
				}
			}
		}
		return !found
	})
	return found
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

// loopVarProblems reports the variables of three-clause loops that a
// per-iteration copy cannot model: captured by a closure and changed inside
// the loop, or with their address taken (a write through the pointer must
// carry into the next iteration). Range loops are always copied.
func (a *analysis) loopVarProblems(filename string) []protocol.Diagnostic {
	var diags []protocol.Diagnostic
	check := func(vars []ast.Expr, body *ast.BlockStmt) {
		captured := map[*types.Var]bool{}
		for _, v := range a.capturedLoopVars(vars, body) {
			captured[v] = true
		}
		for _, v := range a.escapingLoopVars(vars, body) {
			p := a.fset.Position(v.Pos())
			switch {
			case a.addressTaken(v, body):
				diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(
					NeedsCompiledPrefix+"the address of loop variable %s is taken in a three-clause for loop: the kernel's interpreter (yaegi) shares one variable across iterations (pre-Go 1.22), so every pointer would see the last value; to run interpreted, copy it first (%s := %s) and take the copy's address",
					v.Name(), v.Name()+"Copy", v.Name())})
			case captured[v] && a.assignedIn(v, body):
				diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(
					NeedsCompiledPrefix+"loop variable %s is captured by a closure and changed inside the loop: the kernel's interpreter (yaegi) shares one variable across iterations (pre-Go 1.22); to run interpreted, copy it first (%s := %s) and capture the copy",
					v.Name(), v.Name()+"Copy", v.Name())})
			}
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		if n, ok := n.(*ast.ForStmt); ok {
			if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				check(as.Lhs, n.Body)
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
	parts, ok := a.goCallParts(g)
	if !ok {
		return nil, false
	}
	return func(guard string, text func(ast.Expr) string) string { return parts(guard, text).String() }, true
}

// goCall is wrapGoCall's result in pieces: func(params) { body }(args),
// where names are the parameters' names.
type goCall struct{ params, names, body, args string }

func (c goCall) String() string { return fmt.Sprintf("func(%s) { %s }(%s)", c.params, c.body, c.args) }

func (a *analysis) goCallParts(g *ast.GoStmt) (func(guard string, text func(ast.Expr) string) goCall, bool) {
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
	// Go evaluates the receiver of `go v.M(x)` and `defer v.M(x)` at the
	// statement too; the wrapper takes it as a parameter (strata_r), or
	// yaegi would read v when the call runs, a silent wrong answer.
	var recv *recvText
	if se, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if sel := a.info.Selections[se]; sel != nil && sel.Kind() == types.MethodVal && a.bindable(sel) {
			if r, ok := a.receiverText(sel); ok && r.typ != nil {
				ts := types.TypeString(r.typ, qual)
				if !strings.Contains(ts, "invalid type") && !typeNeedsMissingImport(ts) {
					recv = &r
					params = append([]string{"strata_r " + ts}, params...)
				}
			}
		}
	}
	return func(guard string, text func(ast.Expr) string) goCall {
		var names, args []string
		fun := text(call.Fun)
		if recv != nil {
			se := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			fun = "strata_r." + se.Sel.Name
			args = append(args, recv.prefix+"("+text(se.X)+")"+recv.path)
		}
		for i, arg := range call.Args {
			names = append(names, fmt.Sprintf("strata_a%d", i))
			args = append(args, text(arg))
		}
		all := names
		if recv != nil {
			all = append([]string{"strata_r"}, names...)
		}
		return goCall{params: strings.Join(params, ", "), names: strings.Join(all, ", "),
			body: guard + fun + "(" + strings.Join(names, ", ") + ")", args: strings.Join(args, ", ")}
	}, true
}

// wrapDeferCall builds `func(a0 T0, ...) func() { return func() { f(a0, ...) } }(args...)()`
// for `defer f(args...)`: the arguments are evaluated at the defer statement.
func (a *analysis) wrapDeferCall(call *ast.CallExpr) (func(text func(ast.Expr) string) string, bool) {
	w, ok := a.wrapGoCall(&ast.GoStmt{Call: call})
	if !ok {
		return nil, false
	}
	return func(text func(ast.Expr) string) string {
		inner := w("", text) // func(params) { f(names) }(args)
		open := strings.Index(inner, ") { ") + len(") { ")
		closeAt := strings.LastIndex(inner, " }(")
		return inner[:open-len("{ ")] + "func() { return func() { " + inner[open:closeAt] + " } }" + inner[closeAt+2:] + "()"
	}, true
}

// inLoop reports whether n is inside a for or range body of its own function.
func (a *analysis) inLoop(n ast.Node) bool {
	found := false
	var walk func(node ast.Node, loop bool) bool
	walk = func(node ast.Node, loop bool) bool {
		ast.Inspect(node, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			if m == n {
				found = loop
				return false
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				walk(x.Body, false)
				return false
			case *ast.ForStmt:
				walk(x.Body, true)
				return false
			case *ast.RangeStmt:
				walk(x.Body, true)
				return false
			}
			return true
		})
		return found
	}
	for _, d := range a.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Pos() <= n.Pos() && n.End() <= fd.End() {
			return walk(fd.Body, false)
		}
	}
	return false
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

// isLoggerSetPrefix reports whether se is the method (*log.Logger).SetPrefix.
func (a *analysis) isLoggerSetPrefix(se *ast.SelectorExpr) bool {
	sel := a.info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return false
	}
	fn, ok := sel.Obj().(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "log" && fn.Name() == "SetPrefix"
}

// stmtList is the statement list n holds: a block's, or a case or select
// clause's body. Lowerings that add a statement beside another look there.
func stmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}
