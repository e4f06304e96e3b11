package supervisor

import (
	"go/ast"
	"go/parser"
	"go/token"
)

// The interpreter places a panic that kills its kernel (one in a goroutine
// the block started) by the statement it ran before the one that panicked,
// not that one: `m["x"] = 1` on a nil map was reported at the line above,
// `var m map[string]int`, which is not wrong code. What it gets right is the
// function, so the error points there instead and says that the line inside
// it is not known.

// enclosingFunc is the innermost function (declaration or literal) of src
// whose body holds line: where its `func` is. ok is false when src does not
// parse or no function holds the line.
func enclosingFunc(src string, line int) (fline, fcol int, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "block.go", src, parser.SkipObjectResolution)
	if err != nil {
		return 0, 0, false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		if body == nil {
			return true
		}
		from, to := fset.Position(body.Lbrace).Line, fset.Position(body.Rbrace).Line
		if line < from || line > to {
			return false // nothing inside holds it either
		}
		p := fset.Position(n.Pos())
		fline, fcol, ok = p.Line, p.Column, true
		return true // a literal inside may hold it more closely
	})
	return fline, fcol, ok
}
