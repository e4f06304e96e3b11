package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// typedNilIfaces reports a pointer to a type the block declares (or the
// block's own pointer type) that may be nil where it becomes a standard-library interface with
// methods (error, io.Writer, fmt.Stringer, …). In Go that interface is not
// nil: it holds a nil *T, so `err != nil` is true and err.Error() runs with
// a nil receiver. yaegi wraps the block's values for such interfaces and
// makes a nil one a nil interface: `err != nil` is false, a silent wrong
// answer on Go's best-known gotcha (`func f() error { var p *E; return p }`).
// Interfaces the block declares, and `any`, keep the dynamic type, and
// values that cannot be nil (&T{…}, new(T), a variable only ever assigned
// one of those) are not reported.
func (a *analysis) typedNilIfaces(report func(pos token.Pos, format string, args ...any)) {
	nonNil := a.nonNilVars()
	guards := a.nilGuards()
	receivers := a.pointerReceivers()
	check := func(e ast.Expr, target types.Type, native *types.Func) {
		if e == nil || target == nil || !a.nativeMethodIface(target) {
			return
		}
		// A method handing its own receiver to container/heap or sort
		// (`heap.Fix(pq, i)` in a PriorityQueue's update, as in heap's
		// documentation): those only call the interface's methods, never
		// compare it with nil, and a receiver is not nil in ordinary code.
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && receivers[a.info.Uses[id]] && native != nil && native.Pkg() != nil && (native.Pkg().Path() == "container/heap" || native.Pkg().Path() == "sort") {
			return
		}
		t := a.info.TypeOf(e)
		if t == nil || types.IsInterface(t) {
			return
		}
		if named, ok := t.(*types.Named); ok && named.Obj().Pkg() == a.pkg && types.Identical(target, universeError) && types.Implements(t, universeError.Underlying().(*types.Interface)) {
			report(e.Pos(), "%s (a %s value with an Error method) becomes error: the kernel's interpreter (yaegi) then hands it to fmt as its fields, so printing the error would show {…} instead of its message",
				types.ExprString(e), named.Obj().Name())
			return
		}
		if !a.nilableBlockType(t) || a.cannotBeNil(e, nonNil) || a.guarded(e, guards) {
			return
		}
		report(e.Pos(), "%s (a %s that may be nil) becomes %s: the kernel's interpreter (yaegi) turns a nil value of the block's own type into a nil %s, so a comparison with nil would say nil where Go says it is not",
			types.ExprString(e), types.TypeString(t, a.qualifier()), types.TypeString(target, a.qualifier()), types.TypeString(target, a.qualifier()))
	}
	// Every place a value becomes an interface (ifaceConversions, with
	// sort's arguments too), and a comparison of one with an interface.
	a.ifaceConversions(a.file, true, func(e ast.Expr, dst types.Type, _ bool, native *types.Func) { check(e, dst, native) })
	ast.Inspect(a.file, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			check(b.X, a.info.TypeOf(b.Y), nil)
			check(b.Y, a.info.TypeOf(b.X), nil)
		}
		return true
	})
}

// pointerReceivers are the receivers of the block's pointer methods.
func (a *analysis) pointerReceivers() map[types.Object]bool {
	out := map[types.Object]bool{}
	for _, d := range a.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		if _, ptr := fd.Recv.List[0].Type.(*ast.StarExpr); !ptr {
			continue
		}
		for _, name := range fd.Recv.List[0].Names {
			out[a.info.Defs[name]] = true
		}
	}
	return out
}

var universeError = types.Universe.Lookup("error").Type()

// nativeMethodIface reports whether t is an interface with methods that
// the block does not declare (error, io.Writer, …).
func (a *analysis) nativeMethodIface(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	if named, ok := t.(*types.Named); ok && named.Obj().Pkg() == a.pkg {
		return false
	}
	return true
}

// nilableBlockType reports whether t is a pointer to a type the block
// declares, or a pointer type the block declares. (Its own nil maps and
// slices in such interfaces are left alone: `sort.Sort(byAge(s))` is
// everyday Go, and a nil one is not a question anyone asks.)
func (a *analysis) nilableBlockType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		named, ok := p.Elem().(*types.Named)
		return ok && named.Obj().Pkg() == a.pkg
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() != a.pkg {
		return false
	}
	_, ptr := named.Underlying().(*types.Pointer)
	return ptr
}

// cannotBeNil reports whether e is plainly not nil: &x, &T{…}, new(T), a
// composite literal, a function literal, or a variable in nonNil.
func (a *analysis) cannotBeNil(e ast.Expr, nonNil map[types.Object]bool) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return x.Op == token.AND
	case *ast.CompositeLit, *ast.FuncLit:
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
			if b, ok := a.info.Uses[id].(*types.Builtin); ok && (b.Name() == "new" || b.Name() == "make") {
				return true
			}
		}
	case *ast.Ident:
		return nonNil[a.info.Uses[x]]
	}
	return false
}

// nonNilVars are the block's variables whose every assignment is plainly
// not nil (x := &T{…}) and whose address is never taken.
func (a *analysis) nonNilVars() map[types.Object]bool {
	ok := map[types.Object]bool{}
	bad := map[types.Object]bool{}
	assign := func(lhs ast.Expr, rhs ast.Expr) {
		id, isID := ast.Unparen(lhs).(*ast.Ident)
		if !isID {
			return
		}
		obj := a.info.ObjectOf(id)
		if obj == nil {
			return
		}
		if rhs != nil && a.cannotBeNil(rhs, nil) {
			ok[obj] = true
		} else {
			bad[obj] = true
		}
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) {
				for i, l := range n.Lhs {
					assign(l, n.Rhs[i])
				}
			} else {
				for _, l := range n.Lhs {
					assign(l, nil)
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				var v ast.Expr
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					v = n.Values[i]
				}
				assign(name, v)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				assign(n.X, nil)
			}
		case *ast.RangeStmt:
			assign(n.Key, nil)
			if n.Value != nil {
				assign(n.Value, nil)
			}
		}
		return true
	})
	for obj := range bad {
		delete(ok, obj)
	}
	return ok
}

// nilGuard is `if x == nil { …; return }` (no else): after it, to the end
// of its block, x is not nil unless assigned again there.
type nilGuard struct {
	obj      types.Object
	from, to token.Pos
}

func (a *analysis) nilGuards() []nilGuard {
	var guards []nilGuard
	ast.Inspect(a.file, func(n ast.Node) bool {
		b, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for _, st := range b.List {
			ifs, ok := st.(*ast.IfStmt)
			if !ok || ifs.Else != nil || ifs.Init != nil || len(ifs.Body.List) == 0 {
				continue
			}
			switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
			case *ast.ReturnStmt:
			case *ast.BranchStmt:
				if last.Tok != token.CONTINUE && last.Tok != token.BREAK {
					continue
				}
			default:
				continue
			}
			cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || cond.Op != token.EQL {
				continue
			}
			x := cond.X
			if isNilIdent(x) {
				x = cond.Y
			} else if !isNilIdent(cond.Y) {
				continue
			}
			if id, ok := ast.Unparen(x).(*ast.Ident); ok && a.info.Uses[id] != nil {
				g := nilGuard{obj: a.info.Uses[id], from: ifs.End(), to: b.End()}
				if !a.reassignedAfter(g) {
					guards = append(guards, g)
				}
			}
		}
		return true
	})
	return guards
}

func isNilIdent(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// reassignedAfter reports whether g's variable is assigned (or its address
// taken) between g.from and g.to.
func (a *analysis) reassignedAfter(g nilGuard) bool {
	found := false
	ast.Inspect(a.file, func(n ast.Node) bool {
		if found || n == nil || n.End() < g.from || n.Pos() > g.to {
			return !found
		}
		var targets []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			targets = n.Lhs
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				targets = []ast.Expr{n.X}
			}
		}
		for _, t := range targets {
			if id, ok := ast.Unparen(t).(*ast.Ident); ok && id.Pos() > g.from && a.info.ObjectOf(id) == g.obj {
				found = true
			}
		}
		return true
	})
	return found
}

// guarded reports whether e is a variable a nil guard before it covers.
func (a *analysis) guarded(e ast.Expr, guards []nilGuard) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := a.info.Uses[id]
	for _, g := range guards {
		if g.obj == obj && id.Pos() > g.from && id.Pos() < g.to {
			return true
		}
	}
	return false
}
