package interp

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/stratahq/strata/kernel/protocol"
)

// unsupported finds valid Go that yaegi v0.16 would reject obscurely, crash
// on, or run with different semantics. Each message says what to write
// instead. (The Go 1.22 loop variable is supported by rewriting: see rewrite.go.)
func (e *Executor) unsupported(a *analysis, filename string) []protocol.Diagnostic {
	var diags []protocol.Diagnostic
	at := func(pos token.Pos, format string, args ...any) {
		p := a.fset.Position(pos)
		diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column,
			Message: fmt.Sprintf(format, args...)})
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			tv, ok := a.info.Types[n.X]
			if !ok || tv.Type == nil {
				break
			}
			switch u := tv.Type.Underlying().(type) {
			case *types.Basic:
				if u.Info()&types.IsInteger != 0 {
					at(n.X.Pos(), "range over an integer is not supported by the kernel's interpreter (yaegi): write `for i := 0; i < n; i++`")
				}
			case *types.Signature:
				at(n.X.Pos(), "range over a function (an iterator) is not supported by the kernel's interpreter (yaegi): collect the values into a slice and range over that")
			}
		case *ast.CallExpr:
			id, ok := ast.Unparen(n.Fun).(*ast.Ident)
			if !ok {
				break
			}
			if b, ok := a.info.Uses[id].(*types.Builtin); ok {
				switch b.Name() {
				case "min", "max":
					at(id.Pos(), "the builtin %s is not supported by the kernel's interpreter (yaegi): compare with if, or use math.%s for floats", b.Name(), capitalize(b.Name()))
				case "clear":
					at(id.Pos(), "the builtin clear is not supported by the kernel's interpreter (yaegi): delete map keys in a loop, or assign a new map or slice")
				}
			}
		}
		return true
	})
	// Inferred type arguments of the block's own generic functions: yaegi
	// infers single type parameters but mis-infers several at once.
	for id, inst := range a.info.Instances {
		fn, ok := a.info.Uses[id].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != a.file.Name.Name || inst.TypeArgs.Len() < 2 {
			continue
		}
		if !explicitlyInstantiated(a.file, id) {
			at(id.Pos(), "calling %s without explicit type arguments is not supported by the kernel's interpreter (yaegi infers them wrongly): write %s", fn.Name(), instantiation(fn.Name(), inst))
		}
	}
	diags = append(diags, a.loopVarProblems(filename)...)
	return diags
}

func explicitlyInstantiated(f *ast.File, id *ast.Ident) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IndexExpr:
			if x.X == id {
				found = true
			}
		case *ast.IndexListExpr:
			if x.X == id {
				found = true
			}
		}
		return !found
	})
	return found
}

func instantiation(name string, inst types.Instance) string {
	s := name + "["
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		if i > 0 {
			s += ", "
		}
		s += types.TypeString(inst.TypeArgs.At(i), func(p *types.Package) string { return p.Name() })
	}
	return s + "](...)"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
