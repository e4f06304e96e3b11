package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// logFileFlags reports log.Lshortfile and log.Llongfile: the logger finds
// the caller's file and line with runtime.Caller, which under yaegi is the
// interpreter's own source, so every line would name the wrong place.
func (a *analysis) logFileFlags(report func(pos token.Pos, format string, args ...any)) {
	ast.Inspect(a.file, func(n ast.Node) bool {
		se, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		c, ok := a.info.Uses[se.Sel].(*types.Const)
		if ok && c.Pkg() != nil && c.Pkg().Path() == "log" && (c.Name() == "Lshortfile" || c.Name() == "Llongfile") {
			report(se.Pos(), "log.%s: the logger asks the Go runtime for the caller's file and line, and under the kernel's interpreter (yaegi) that is the interpreter's own source, not the block's", c.Name())
		}
		return true
	})
}
