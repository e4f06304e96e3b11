package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// yaegi v0.16 has no types of its own at run time: a block's named type is
// the reflect type of what it is made of. `type Celsius float64` is a
// float64, `type Point struct{X, Y int}` is struct{X, Y int}, and methods
// live beside the value, in a wrapper yaegi makes only where a value is
// handed straight to native code (fmt.Println(c) calls c.String()). So,
// silently and unlike Go (corpus k9c_types_*):
//
//   - a type switch or type assertion cannot tell Celsius from float64, or
//     two named types made of the same type from each other (the first
//     case wins); == between interfaces holding them, and map keys of
//     interface type, cannot either;
//   - reflect.Type's Name and String, and == between reflect.Types, see the
//     underlying type (float64, "struct { X int; Y int }");
//   - a value with a String, Error, Format or GoString method nested in
//     what native code gets (a []Point, a struct field, a map value, an
//     element of a []any or map[string]any) prints without its method, or
//     as yaegi's wrapper ({0xc000… {…}});
//   - encoding/json does not call MarshalJSON/UnmarshalJSON (or the Text
//     forms) of a type nested in what it encodes.
//
// These checks find those uses; the block runs compiled instead.

// typeChecks reports each such use in the analysis's file.
func (a *analysis) typeChecks(at func(token.Pos, string, ...any)) {
	if a.pkg == nil {
		return
	}
	defer func() {
		// A fault in these checks must not decide the answer: run compiled.
		if v := recover(); v != nil {
			at(a.file.Name.Pos(), "the kernel could not check how this block's types would run interpreted (%v), so it runs compiled", v)
		}
	}()
	own := a.ownTypes()
	if len(own) == 0 {
		return
	}
	// Own types made of something another type is made of, and whether a
	// value of one of them ever becomes an interface.
	inIface := a.ifaceHeld(own)

	// Each place a value becomes an interface: with a printer nested in
	// it, or a printer stored into an interface that is itself nested.
	{
		a.ifaceConversions(a.file, false, func(e ast.Expr, dst types.Type, nested bool, native *types.Func) {
			t := a.info.TypeOf(e)
			if t == nil || native != nil && !printing(native) {
				return // sort, json, errors, …: they do not print what they get
			}
			if n, ok := a.ownNamed(t); ok && fmtMethods(n) {
				switch {
				case nested && !hasMethod(dst, fmtMethodName(n)):
					at(e.Pos(), "a value of %s, with a method %s, stored in an interface inside a slice, map or struct: the kernel's interpreter (yaegi) keeps it there without its methods, so fmt would print it wrongly", n.Obj().Name(), fmtMethodName(n))
				case hasMethod(dst, fmtMethodName(n)):
					// error, fmt.Stringer: yaegi wraps the value with its methods
				case native != nil && wrapsForPrinting(native) && fmtMethodName(n) != "GoString":
					// fmt.Println(v), log.Printf("%v", err): yaegi wraps its
					// String, Error or Format method for them (fmt_maptypes.go)
				case native != nil:
					at(e.Pos(), "a value of %s, with a method %s, passed to %s.%s: the kernel's interpreter (yaegi) hands it over without that method (it would print the bare value); only String, Error and Format methods reach fmt's and log's printing functions, and a value made an %s on the way does", n.Obj().Name(), fmtMethodName(n), native.Pkg().Name(), native.Name(), ifaceFor(fmtMethodName(n)))
				default:
					at(e.Pos(), "a value of %s, with a method %s, made an interface value (%s): the kernel's interpreter (yaegi) gives native code such a value without its methods (fmt prints the bare value, or fails), unless it is passed straight to fmt's functions", n.Obj().Name(), fmtMethodName(n), types.TypeString(dst, a.qualifier()))
				}
				return
			}
			if f := a.hiddenMethodField(t, map[types.Type]bool{}, true); f != nil {
				at(e.Pos(), "a %s with the unexported field %s of type %s made an interface value (printed, logged or passed on): Go's fmt does not call the methods of unexported fields, and the kernel's interpreter (yaegi) exports a block's fields, so it would print them differently", typeKindWord(t), f.Name(), types.TypeString(f.Type(), a.qualifier()))
				return
			}
			if n := a.nestedPrinter(t, map[types.Type]bool{}, true); n != nil {
				at(e.Pos(), "a %s holding %s, with a method %s, made an interface value (printed, logged or passed on): the kernel's interpreter (yaegi) drops the methods of values nested in what native code gets, so fmt would print it wrongly", typeKindWord(t), n.Obj().Name(), fmtMethodName(n))
			}
		})
		// Generic code: a type argument holding a printer reaches fmt
		// inside the generic function as its own type.
		for id, inst := range a.info.Instances {
			if !a.inFile(id.Pos()) {
				continue
			}
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				if n := a.nestedPrinter(inst.TypeArgs.At(i), map[types.Type]bool{}, false); n != nil {
					at(id.Pos(), "%s instantiated with a type holding %s, with a method %s: the kernel's interpreter (yaegi) drops the methods of values nested in what native code gets, so printing it in generic code would go wrong", id.Name, n.Obj().Name(), fmtMethodName(n))
					break
				}
			}
		}
	}

	a.decodeErrors(at)

	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				if why := a.confusable(own, a.info.TypeOf(n.Type)); why != "" {
					at(n.Type.Pos(), "type assertion to %s: %s", types.ExprString(n.Type), why)
				}
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if tv, ok := a.info.Types[e]; ok && tv.IsType() {
						if why := a.confusable(own, tv.Type); why != "" {
							at(e.Pos(), "type switch case %s: %s", types.ExprString(e), why)
						}
					}
				}
			}
		case *ast.BinaryExpr:
			if len(inIface) > 0 && (n.Op == token.EQL || n.Op == token.NEQ) && a.isInterface(n.X) && a.isInterface(n.Y) && !isTypeParam(a.info.TypeOf(n.X)) {
				at(n.OpPos, "%s between interface values in a block where a value of %s becomes an interface: the kernel's interpreter (yaegi) cannot tell %s from %s, so the comparison could be wrong", n.Op, inIface[0].Obj().Name(), inIface[0].Obj().Name(), types.TypeString(inIface[0].Underlying(), a.qualifier()))
			}
			if (n.Op == token.EQL || n.Op == token.NEQ) && isReflectType(a.info.TypeOf(n.X)) {
				at(n.OpPos, "%s between reflect.Types in a block that declares types: the kernel's interpreter (yaegi) gives a block's type the reflect type of its underlying type", n.Op)
			}
		case *ast.MapType:
			if kt := a.info.TypeOf(n.Key); len(inIface) > 0 && kt != nil && types.IsInterface(kt) && !isTypeParam(kt) {
				at(n.Key.Pos(), "a map keyed by an interface in a block where a value of %s becomes an interface: the kernel's interpreter (yaegi) cannot tell %s from %s, so such keys could collide", inIface[0].Obj().Name(), inIface[0].Obj().Name(), types.TypeString(inIface[0].Underlying(), a.qualifier()))
			}
		case *ast.SelectorExpr:
			if sel, ok := a.info.Selections[n]; ok && isReflectType(sel.Recv()) && !a.fieldTypeNotOwn(n.X, own) {
				switch n.Sel.Name {
				case "Name", "String", "PkgPath", "AssignableTo", "ConvertibleTo", "Implements", "Comparable":
					at(n.Sel.Pos(), "reflect.Type's %s in a block that declares types: the kernel's interpreter (yaegi) gives a block's type the reflect type of its underlying type (float64, struct {…}), with no name", n.Sel.Name)
				}
			}
			if a.isFunc(n.Sel, "reflect", "DeepEqual") && len(inIface) > 0 {
				at(n.Sel.Pos(), "reflect.DeepEqual in a block where a value of %s becomes an interface: the kernel's interpreter (yaegi) cannot tell %s from %s", inIface[0].Obj().Name(), inIface[0].Obj().Name(), types.TypeString(inIface[0].Underlying(), a.qualifier()))
			}
		case *ast.CallExpr:
			// A reflect.Type printed shows its name.
			if fn := a.callee(n); fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" || fn.Pkg().Path() == "log") {
				for _, arg := range n.Args {
					if isReflectType(a.info.TypeOf(arg)) && !a.fieldTypeNotOwn(arg, own) {
						at(arg.Pos(), "printing a reflect.Type in a block that declares types: the kernel's interpreter (yaegi) gives a block's type the reflect type of its underlying type, with no name")
					}
				}
			}
		case *ast.FuncDecl:
			if n.Recv != nil && a.importsAny("encoding/json", "encoding/xml") {
				switch n.Name.Name {
				case "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "MarshalXML", "UnmarshalXML":
					at(n.Name.Pos(), "the method %s in a block that uses encoding/json or encoding/xml: the kernel's interpreter (yaegi) hides it from the encoder when the value is nested (a field, an element), so the encoding would differ", n.Name.Name)
				}
			}
		}
		return true
	})
}

// ownTypes returns every named type the block declares (package level and
// inside functions), generic ones excepted.
func (a *analysis) ownTypes() []*types.Named {
	var out []*types.Named
	seen := map[*types.Named]bool{}
	for _, obj := range a.info.Defs {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.Pkg() != a.pkg || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || seen[n] || n.TypeParams().Len() > 0 {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// fmtMethods reports whether fmt would call a method of n (or *n).
func fmtMethods(n *types.Named) bool { return fmtMethodName(n) != "" }

func fmtMethodName(n *types.Named) string {
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, name := range []string{"String", "Error", "Format", "GoString"} {
		if ms.Lookup(n.Obj().Pkg(), name) != nil {
			return name
		}
	}
	return ""
}

// nestedPrinter returns an own type with fmt methods that t holds below its
// top level (an element, a key, a field, what a pointer points to), or t
// itself when top and t is one. A type whose own value methods print it
// stops the search: fmt calls its method and does not look inside.
func (a *analysis) nestedPrinter(t types.Type, seen map[types.Type]bool, top bool) *types.Named {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() != a.pkg {
			return nil // a standard or SDK type: native, with its methods
		}
		if fmtMethods(n) {
			if !top {
				return n
			}
			if valueMethodPrints(n) {
				return nil
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if n, ok := u.Elem().(*types.Named); ok && top && n.Obj().Pkg() == a.pkg && fmtMethods(n) {
			return nil // *T with T's or *T's methods: fmt calls them
		}
		return a.nestedPrinter(u.Elem(), seen, false)
	case *types.Slice:
		return a.nestedPrinter(u.Elem(), seen, false)
	case *types.Array:
		return a.nestedPrinter(u.Elem(), seen, false)
	case *types.Map:
		if n := a.nestedPrinter(u.Key(), seen, false); n != nil {
			return n
		}
		return a.nestedPrinter(u.Elem(), seen, false)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if n := a.nestedPrinter(u.Field(i).Type(), seen, false); n != nil {
				return n
			}
		}
	}
	return nil
}

// valueMethodPrints reports whether a value (not a pointer) of n has a
// method fmt calls.
func valueMethodPrints(n *types.Named) bool {
	ms := types.NewMethodSet(n)
	for _, name := range []string{"String", "Error", "Format", "GoString"} {
		if ms.Lookup(n.Obj().Pkg(), name) != nil {
			return true
		}
	}
	return false
}

func typeKindWord(t types.Type) string {
	switch t.Underlying().(type) {
	case *types.Slice:
		return "slice"
	case *types.Array:
		return "array"
	case *types.Map:
		return "map"
	case *types.Pointer:
		return "pointer"
	case *types.Struct:
		return "struct"
	}
	return "value"
}

func isReflectType(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Type"
}

func (a *analysis) importsAny(paths ...string) bool {
	for _, f := range a.files {
		for _, imp := range f.Imports {
			for _, p := range paths {
				if strings.Trim(imp.Path.Value, `"`) == p {
					return true
				}
			}
		}
	}
	return false
}

// confusable says why yaegi could match a value of another type as t (a
// type switch case or assertion target), or "".
func (a *analysis) confusable(own []*types.Named, t types.Type) string {
	if t == nil || types.IsInterface(t) {
		return ""
	}
	u := t.Underlying()
	if n, ok := a.ownNamed(t); ok && n == t {
		if _, isStruct := u.(*types.Struct); !isStruct {
			return "the kernel's interpreter (yaegi) keeps " + n.Obj().Name() + " as its underlying type " + types.TypeString(u, a.qualifier()) + ", so a value of either would match"
		}
	}
	for _, o := range own {
		if types.Identical(o, t) {
			continue
		}
		if types.Identical(o.Underlying(), u) {
			return "the kernel's interpreter (yaegi) keeps " + o.Obj().Name() + " as its underlying type " + types.TypeString(u, a.qualifier()) + ", the same as " + types.TypeString(t, a.qualifier()) + "'s, so a value of either would match"
		}
	}
	return ""
}

// ifaceHeld returns the own non-struct types a value of which becomes an
// interface somewhere in the block's package, and the struct types made of
// the same struct as another type (both are confusable once in an
// interface).
func (a *analysis) ifaceHeld(own []*types.Named) []*types.Named {
	confusableType := map[types.Type]bool{}
	for _, n := range own {
		u := n.Underlying()
		if types.IsInterface(u) {
			continue
		}
		if _, isStruct := u.(*types.Struct); !isStruct {
			confusableType[n] = true
			continue
		}
		for _, o := range own {
			if o != n && types.Identical(o.Underlying(), u) {
				confusableType[n] = true
			}
		}
	}
	if len(confusableType) == 0 {
		return nil
	}
	var out []*types.Named
	seen := map[types.Type]bool{}
	for _, f := range a.files {
		a.ifaceConversions(f, true, func(e ast.Expr, _ types.Type, _ bool, fn *types.Func) {
			if fn != nil && (fn.Pkg().Path() == "fmt" && fn.Name() != "Errorf" || fn.Pkg().Path() == "log") {
				return // handed to fmt or log to print: it meets no other value
			}
			t := a.info.TypeOf(e)
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok && confusableType[n] && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		})
	}
	return out
}

// ifaceConversions calls visit for each expression of a non-interface type
// that f converts to an interface: an argument, an assigned or declared
// value, a composite literal's element, a returned or sent value, an
// explicit conversion, an append. nested says the interface it becomes is
// itself inside a slice, map, struct or pointer (an element, a field);
// native is the native (standard) function e is an argument of, if any.
// Arguments of package sort's functions are left out unless all is set
// (sort only reorders).
func (a *analysis) ifaceConversions(f *ast.File, all bool, visit func(e ast.Expr, dst types.Type, nested bool, native *types.Func)) {
	a.ifaceAssignments(f, all, false, visit)
}

// ifaceAssignments is ifaceConversions, with the places an interface value
// is stored into another interface type too when fromIface is set.
func (a *analysis) ifaceAssignments(f *ast.File, all, fromIface bool, visit func(e ast.Expr, dst types.Type, nested bool, native *types.Func)) {
	var native *types.Func
	check := func(e ast.Expr, dst types.Type, nested bool) {
		if e == nil || dst == nil || !types.IsInterface(dst) {
			return
		}
		tv, ok := a.info.Types[e]
		if !ok || tv.Type == nil || tv.IsNil() || types.IsInterface(tv.Type) != fromIface {
			return
		}
		if _, isParam := tv.Type.(*types.TypeParam); isParam {
			return
		}
		visit(e, dst, nested, native)
	}
	var results []*types.Tuple
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			sig, _ := a.info.Defs[n.Name].Type().(*types.Signature)
			results = append(results, sig.Results())
			ast.Inspect(n.Body, walk)
			results = results[:len(results)-1]
			return false
		case *ast.FuncLit:
			sig, _ := a.info.TypeOf(n).(*types.Signature)
			if sig == nil {
				return false
			}
			results = append(results, sig.Results())
			ast.Inspect(n.Body, walk)
			results = results[:len(results)-1]
			return false
		case *ast.ReturnStmt:
			if len(results) > 0 && results[len(results)-1] != nil && results[len(results)-1].Len() == len(n.Results) {
				for i, r := range n.Results {
					check(r, results[len(results)-1].At(i).Type(), false)
				}
			}
		case *ast.CallExpr:
			tv := a.info.Types[n.Fun]
			if tv.IsType() {
				if len(n.Args) == 1 {
					check(n.Args[0], tv.Type, false)
				}
				break
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				if b, ok := a.info.Uses[id].(*types.Builtin); ok {
					if b.Name() == "append" && len(n.Args) > 1 && !n.Ellipsis.IsValid() {
						if s, ok := under(a.info.TypeOf(n.Args[0])).(*types.Slice); ok {
							for _, arg := range n.Args[1:] {
								check(arg, s.Elem(), true)
							}
						}
					}
					break
				}
			}
			if fn := a.callee(n); !all && fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "sort" {
				break
			}
			sig, ok := tv.Type.(*types.Signature)
			if !ok {
				break
			}
			params := sig.Params()
			if a.nativeCallee(n) {
				native = a.callee(n)
			}
			for i, arg := range n.Args {
				var pt types.Type
				switch {
				case sig.Variadic() && i >= params.Len()-1:
					if n.Ellipsis.IsValid() {
						continue
					}
					pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
				case i < params.Len():
					pt = params.At(i).Type()
					if native != nil && (native.Pkg().Path() == "fmt" || native.Pkg().Path() == "log") {
						continue // Fprintf's writer, Errorf's format: not printed
					}
				}
				check(arg, pt, false)
			}
			native = nil
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					_, ix := ast.Unparen(l).(*ast.IndexExpr)
					_, sel := ast.Unparen(l).(*ast.SelectorExpr)
					check(n.Rhs[i], a.info.TypeOf(l), ix || sel)
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && len(n.Values) == len(n.Names) {
				for _, v := range n.Values {
					check(v, a.info.TypeOf(n.Type), false)
				}
			}
		case *ast.SendStmt:
			if c, ok := under(a.info.TypeOf(n.Chan)).(*types.Chan); ok {
				check(n.Value, c.Elem(), false)
			}
		case *ast.CompositeLit:
			t := a.info.TypeOf(n)
			if t == nil {
				break
			}
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			switch u := t.Underlying().(type) {
			case *types.Slice:
				for _, el := range n.Elts {
					check(kvValue(el), u.Elem(), true)
				}
			case *types.Array:
				for _, el := range n.Elts {
					check(kvValue(el), u.Elem(), true)
				}
			case *types.Map:
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						check(kv.Key, u.Key(), true)
						check(kv.Value, u.Elem(), true)
					}
				}
			case *types.Struct:
				for i, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							if v, ok := a.info.Uses[id].(*types.Var); ok {
								check(kv.Value, v.Type(), true)
							}
						}
					} else if i < u.NumFields() {
						check(el, u.Field(i).Type(), true)
					}
				}
			}
		}
		return true
	}
	ast.Inspect(f, walk)
}

func kvValue(e ast.Expr) ast.Expr {
	if kv, ok := e.(*ast.KeyValueExpr); ok {
		return kv.Value
	}
	return e
}

// hasMethod reports whether the interface t has the method name.
func hasMethod(t types.Type, name string) bool {
	i, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for j := 0; j < i.NumMethods(); j++ {
		if i.Method(j).Name() == name {
			return true
		}
	}
	return false
}

func isTypeParam(t types.Type) bool { _, ok := t.(*types.TypeParam); return ok }

func ifaceFor(method string) string {
	if method == "Error" {
		return "error"
	}
	return "fmt.Stringer"
}

// fieldTypeNotOwn reports whether e is f.Type of a reflect.StructField while
// no struct the block declares has a field of a type it declares: then e
// describes a standard type, whose name yaegi has right.
func (a *analysis) fieldTypeNotOwn(e ast.Expr, own []*types.Named) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Type" {
		return false
	}
	n, ok := a.info.TypeOf(sel.X).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" || n.Obj().Name() != "StructField" {
		return false
	}
	for _, o := range own {
		if st, ok := o.Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if a.holdsOwn(st.Field(i).Type(), map[types.Type]bool{}) {
					return false
				}
			}
		}
	}
	return true
}

// printing reports whether the native function fn may print what it gets.
func printing(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "fmt", "log", "text/template", "html/template":
		return true
	}
	return false
}

// under is t's underlying type, nil for nil.
func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// hiddenMethodField returns an unexported field of a struct the block
// declares (or an unnamed struct) that t holds, whose type is an interface
// or has a method fmt calls: fmt prints such a field raw in Go, and calls
// the method under yaegi, which exports every field of a block's struct.
// Standard types are native and are not looked into; a type whose value
// methods print it stops the search, as fmt does.
func (a *analysis) hiddenMethodField(t types.Type, seen map[types.Type]bool, top bool) *types.Var {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() != a.pkg || valueMethodPrints(n) {
			return nil
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if n, ok := u.Elem().(*types.Named); ok && top && n.Obj().Pkg() == a.pkg && fmtMethods(n) {
			return nil
		}
		return a.hiddenMethodField(u.Elem(), seen, false)
	case *types.Slice:
		return a.hiddenMethodField(u.Elem(), seen, false)
	case *types.Array:
		return a.hiddenMethodField(u.Elem(), seen, false)
	case *types.Map:
		if f := a.hiddenMethodField(u.Key(), seen, false); f != nil {
			return f
		}
		return a.hiddenMethodField(u.Elem(), seen, false)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if !f.Exported() && printsItself(f.Type()) {
				return f
			}
			if g := a.hiddenMethodField(f.Type(), seen, false); g != nil {
				return g
			}
		}
	}
	return nil
}

// printsItself reports whether fmt could call a method of a value of t: t is
// an interface, or t or *t has String, Error, Format or GoString.
func printsItself(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	for _, tt := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(tt)
		for i := 0; i < ms.Len(); i++ {
			switch ms.At(i).Obj().Name() {
			case "String", "Error", "Format", "GoString":
				return true
			}
		}
	}
	return false
}

// holdsOwn reports whether t is or holds (element, key, field, pointee) a
// type the block declares.
func (a *analysis) holdsOwn(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() == a.pkg {
			return true
		}
		if n.Obj().Pkg() != nil {
			return false // a standard type
		}
	}
	for _, c := range componentTypes(t) {
		if a.holdsOwn(c, seen) {
			return true
		}
	}
	return false
}

// componentTypes are the types a value of t holds one level down: what a
// pointer points to, a slice's or array's element, a map's key and value,
// a struct's fields. The checks that look inside a type walk them.
func componentTypes(t types.Type) []types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return []types.Type{u.Elem()}
	case *types.Slice:
		return []types.Type{u.Elem()}
	case *types.Array:
		return []types.Type{u.Elem()}
	case *types.Map:
		return []types.Type{u.Key(), u.Elem()}
	case *types.Struct:
		out := make([]types.Type, u.NumFields())
		for i := range out {
			out[i] = u.Field(i).Type()
		}
		return out
	}
	return nil
}

// codecCalls are the encoding calls whose errors name the Go types
// involved ("Go struct field Person.age", "Go value of type main.Point"),
// which yaegi leaves unnamed (".age").
var codecCalls = map[string]map[string]bool{
	"encoding/json": {"Unmarshal": true, "Decode": true, "Marshal": true, "MarshalIndent": true, "Encode": true},
	"encoding/xml":  {"Unmarshal": true, "Decode": true, "Marshal": true, "MarshalIndent": true, "Encode": true},
}

// decodeErrors finds encoding calls over values holding a block's type made
// of a basic type whose error is printed (passed to fmt or log, or its
// Error method called): its text would name that type by its underlying
// type. (Errors naming the block's structs are checked when they happen:
// see CodecErr in runtime_rt.go.)
func (a *analysis) decodeErrors(at func(token.Pos, string, ...any)) {
	printed := map[types.Object]bool{}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := a.callee(n); fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" || fn.Pkg().Path() == "log") {
				for _, arg := range n.Args {
					if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
						printed[a.info.Uses[id]] = true
					}
				}
			}
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Sel.Name == "Error" {
				printed[a.info.Uses[id]] = true
			}
		}
		return true
	})
	codec := func(call *ast.CallExpr) bool {
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil || !codecCalls[fn.Pkg().Path()][fn.Name()] {
			return false
		}
		for _, arg := range call.Args {
			if a.holdsOwnNonStruct(a.info.TypeOf(arg), map[types.Type]bool{}) {
				return true
			}
		}
		return false
	}
	report := func(call *ast.CallExpr) {
		fn := a.callee(call)
		held := ""
		for _, arg := range call.Args {
			if t := a.info.TypeOf(arg); held == "" && a.holdsOwnNonStruct(t, map[types.Type]bool{}) {
				held = types.TypeString(t, a.qualifier())
			}
		}
		at(call.Pos(), "the error of %s.%s over %s, which holds a type the block declares that is not a struct (as type Status string), is printed: its text names the Go type (\"of type main.Status\"), which the kernel's interpreter (yaegi) names by its underlying type", fn.Pkg().Name(), fn.Name(), held)
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) != 1 {
				break
			}
			call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
			if !ok || !codec(call) {
				break
			}
			id, ok := n.Lhs[len(n.Lhs)-1].(*ast.Ident)
			if !ok {
				break
			}
			obj := a.info.Defs[id]
			if obj == nil {
				obj = a.info.Uses[id]
			}
			if printed[obj] {
				report(call)
			}
		case *ast.CallExpr:
			// fmt.Println(json.Unmarshal(…)): printed on the spot.
			if fn := a.callee(n); fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" || fn.Pkg().Path() == "log") {
				for _, arg := range n.Args {
					if c, ok := ast.Unparen(arg).(*ast.CallExpr); ok && codec(c) {
						report(c)
					}
				}
			}
		}
		return true
	})
}

// holdsOwnNonStruct reports whether t holds a type the block declares that
// is not a struct (nor an interface).
func (a *analysis) holdsOwnNonStruct(t types.Type, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() != a.pkg {
			return false
		}
		switch n.Underlying().(type) {
		case *types.Struct, *types.Interface:
		default:
			return true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return a.holdsOwnNonStruct(u.Elem(), seen)
	case *types.Slice:
		return a.holdsOwnNonStruct(u.Elem(), seen)
	case *types.Array:
		return a.holdsOwnNonStruct(u.Elem(), seen)
	case *types.Map:
		return a.holdsOwnNonStruct(u.Key(), seen) || a.holdsOwnNonStruct(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if a.holdsOwnNonStruct(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// codecErrorCalls returns the edits wrapping every json/xml Unmarshal,
// Decode and Encode call and every template Execute over the block's types
// (they return only an error) in strata_rt.CodecErr(call, line, col), on
// the same line.
func (a *analysis) codecErrorCalls(off func(token.Pos) int, line, col func(token.Pos) int) []edit {
	var edits []edit
	ast.Inspect(a.file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "encoding/json.Unmarshal", "encoding/json.Decode", "encoding/json.Encode",
			"encoding/xml.Unmarshal", "encoding/xml.Decode", "encoding/xml.Encode",
			"text/template.Execute", "text/template.ExecuteTemplate",
			"html/template.Execute", "html/template.ExecuteTemplate":
		default:
			return true
		}
		if sig, ok := fn.Type().(*types.Signature); !ok || sig.Results().Len() != 1 {
			return true
		}
		own := false
		for _, arg := range call.Args {
			own = own || a.holdsOwn(a.info.TypeOf(arg), map[types.Type]bool{})
		}
		if own {
			edits = append(edits, edit{off: off(call.Pos()), text: rtAlias + ".CodecErr("},
				edit{off: off(call.End()), text: fmt.Sprintf(", %d, %d)", line(call.Pos()), col(call.Pos()))})
		}
		return true
	})
	return edits
}
