package interp

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// templateField matches a template's field or method reference: .Name
var templateField = regexp.MustCompile(`\.([A-Z]\w*)`)

// templateMethods reports template text that calls a method the block
// declares. text/template and html/template find methods by reflection, and
// a type yaegi builds has none reflect can see: the template fails with
// "can't evaluate field M", which the block would report as its own error.
// The check is on the block's string literals, where templates are written.
func (a *analysis) templateMethods(report func(pos token.Pos, format string, args ...any)) {
	usesTemplate := false
	for _, imp := range a.file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "text/template" || p == "html/template" {
			usesTemplate = true
		}
	}
	if !usesTemplate {
		return
	}
	methods := map[string]bool{}
	for _, d := range a.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.IsExported() {
			methods[fd.Name.Name] = true
		}
	}
	if len(methods) == 0 {
		return
	}
	ast.Inspect(a.file, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING || !strings.Contains(lit.Value, "{{") {
			return true
		}
		for _, m := range templateField.FindAllStringSubmatch(lit.Value, -1) {
			if methods[m[1]] {
				report(lit.Pos(), "a template calls the method %s the block declares: text/template finds methods by reflection, and the kernel's interpreter (yaegi) builds types whose methods reflection cannot see", m[1])
				return false
			}
		}
		return true
	})
}
