package procstate

import (
	"go/ast"
	"path"
	"strconv"
)

// registering names, by import path, the functions that add to a
// process-wide registry and panic when a name is registered twice.
var registering = map[string]map[string]bool{
	"expvar":       {"NewInt": true, "NewFloat": true, "NewString": true, "NewMap": true, "Publish": true},
	"net/http":     {"Handle": true, "HandleFunc": true},
	"database/sql": {"Register": true},
}

// Registers returns the first call in files of a function that registers
// a name process-wide ("expvar.NewInt"), or "" when there is none. A
// package name shadowed by a local does not count.
func Registers(files []*ast.File) string {
	for _, f := range files {
		names := map[string]map[string]bool{}
		for _, im := range f.Imports {
			imp, err := strconv.Unquote(im.Path.Value)
			if err != nil || registering[imp] == nil {
				continue
			}
			name := path.Base(imp)
			if im.Name != nil {
				name = im.Name.Name
			}
			names[name] = registering[imp]
		}
		if len(names) == 0 {
			continue
		}
		found := ""
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || found != "" {
				return found == ""
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Obj == nil && names[x.Name][sel.Sel.Name] {
				found = x.Name + "." + sel.Sel.Name
			}
			return true
		})
		if found != "" {
			return found
		}
	}
	return ""
}
