package interp

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Where yaegi's types differ from Go's in what native code sees: a block's
// types reach fmt, encoding/json and reflect as anonymous structs (no name,
// unexported fields exported as X<name>, methods behind a wrapper). These
// checks find the uses whose output would differ, so they run compiled.

// printfFormat returns the constant format string and the arguments after it
// when call is a printf-style call of fmt or log.
func (a *analysis) printfFormat(call *ast.CallExpr) (string, []ast.Expr, bool) {
	fn := a.callee(call)
	if fn == nil || fn.Pkg() == nil || !strings.HasSuffix(fn.Name(), "f") {
		return "", nil, false
	}
	switch fn.Pkg().Path() {
	case "fmt", "log":
	default:
		return "", nil, false
	}
	sig := fn.Type().(*types.Signature)
	if !sig.Variadic() || sig.Params().Len() < 2 {
		return "", nil, false
	}
	fi := sig.Params().Len() - 2
	if len(call.Args) <= fi {
		return "", nil, false
	}
	tv := a.info.Types[call.Args[fi]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", nil, false
	}
	return constant.StringVal(tv.Value), call.Args[fi+1:], true
}

// verbs lists the verbs of a format in argument order ("%#v" as "#v",
// "%+v" as "+v"); explicit argument indexes make it give up (nil, false).
func verbs(format string) ([]string, bool) {
	var out []string
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		flags := ""
		for i < len(format) && strings.IndexByte("+-# 0123456789.*", format[i]) >= 0 {
			if format[i] == '#' || format[i] == '+' {
				flags += string(format[i])
			}
			i++
		}
		if i >= len(format) {
			break
		}
		switch format[i] {
		case '%':
			continue
		case '[':
			return nil, false
		}
		out = append(out, flags+string(format[i]))
	}
	return out, true
}

// ownNamed reports whether t is (a pointer to) a named type the block declares.
func (a *analysis) ownNamed(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return n, ok && n.Obj().Pkg() == a.pkg
}

func hasMethods(n *types.Named) bool {
	return types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// formatProblem says why a printf-style call would print differently under
// yaegi, or "".
func (a *analysis) formatProblem(call *ast.CallExpr) string {
	format, args, ok := a.printfFormat(call)
	if !ok {
		return ""
	}
	vs, ok := verbs(format)
	for i, arg := range args {
		t := a.info.Types[arg].Type
		if t == nil {
			continue
		}
		_, iface := t.Underlying().(*types.Interface)
		named, own := a.ownNamed(t)
		if !own && !iface {
			continue
		}
		verb := "v"
		if ok && i < len(vs) {
			verb = vs[i]
		}
		switch {
		case !ok:
			return "a format with argument indexes over the block's own types"
		case verb == "T" || verb == "#v":
			return "%" + verb + " of a value that can be of the block's own type: yaegi's types have no Go name (it would print struct {…})"
		case own && verb == "+v" && a.hasUnexportedField(named):
			return "%+v of a struct with unexported fields: yaegi exports them as X<name>"
		case own && hasMethods(named) && verb != "v" && verb != "s" && verb != "+v" && verb != "w":
			return "%" + verb + " of " + named.Obj().Name() + ", which has methods: yaegi hands such values to fmt in a wrapper, so %" + verb + " would print the wrapper"
		}
	}
	return ""
}

func (a *analysis) hasUnexportedField(n *types.Named) bool {
	if n == nil {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !st.Field(i).Exported() {
			return true
		}
	}
	return false
}

// reflectingImports are the packages that look at struct fields by reflection.
var reflectingImports = []string{"encoding/json", "encoding/xml", "encoding/gob", "reflect"}

// unexportedForReflection finds struct fields a reflecting package would see
// under yaegi's X<name> and Go would hide.
func (a *analysis) unexportedForReflection(at func(token.Pos, string, ...any)) {
	uses := false
	for _, imp := range a.file.Imports {
		for _, p := range reflectingImports {
			if strings.Trim(imp.Path.Value, `"`) == p {
				uses = true
			}
		}
	}
	if !uses {
		return
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		for _, f := range st.Fields.List {
			for _, name := range f.Names {
				if !name.IsExported() {
					at(name.Pos(), "unexported field %s of %s in a block that uses encoding or reflect: yaegi exports a block's struct fields (as X%s), so encoding/json and reflect would see it", name.Name, ts.Name.Name, name.Name)
					return false
				}
			}
		}
		return true
	})
}

// embeddedForReflection finds embedded fields in a block that uses a
// reflecting package: yaegi v0.16 builds a block's struct type without
// marking them embedded, so encoding/json nested `Meta` under "Meta"
// instead of promoting its fields ({"Meta":{"created":…}} for
// {"created":…}), Unmarshal left them empty, an embedded sync.Mutex
// became "Mutex":{}, and reflect's StructField.Anonymous was false
// (corpus adv3_json_embedded_plain); text/template could not find a
// promoted field ({{.Name}} of an Employee embedding Person).
func (a *analysis) embeddedForReflection(at func(token.Pos, string, ...any)) {
	if !a.importsAny(append(reflectingImports, "text/template", "html/template")...) {
		return
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok {
			return true
		}
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 && a.embedsStruct(f.Type) {
				at(f.Pos(), "embedded field %s in a block that uses encoding, reflect or templates: the kernel's interpreter (yaegi) builds the struct without marking the field embedded, so encoding/json would nest its fields under %q instead of promoting them, and reflect and templates would not see them promoted", types.ExprString(f.Type), embeddedName(f.Type))
				return false
			}
		}
		return true
	})
}

// embedsStruct reports whether an embedded field's type is a struct or a
// pointer to one: only those are promoted (an embedded []string or
// io.Reader is a field named by its type in Go too).
func (a *analysis) embedsStruct(e ast.Expr) bool {
	t := a.info.Types[e].Type
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// embeddedName is the field name an embedded type gets: T for T, *T,
// pkg.T and T[int].
func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(x.X)
	case *ast.IndexListExpr:
		return embeddedName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return types.ExprString(e)
}

// interfaceTarget reports whether a type assertion or type switch case
// targets an interface with methods, which yaegi matches wrongly for values
// of standard-library types (a *errors.errorString missed `case error`).
func (a *analysis) interfaceTarget(e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv, ok := a.info.Types[e]
	if !ok || !tv.IsType() {
		return false
	}
	i, ok := tv.Type.Underlying().(*types.Interface)
	return ok && i.NumMethods() > 0
}
