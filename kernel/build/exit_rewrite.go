package build

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
)

// nativeAlias is the name the rewritten file imports kernel/native as.
const nativeAlias = "strata_native"

// rewriteExits points a block's os.Exit and log.Fatal, Fatalf and Fatalln
// at kernel/native, which says at which line the block ended the process and
// sends what it printed before exiting (a plain os.Exit would lose the
// stdout still in the pipe and the line). No line moves: the import joins
// the package clause's line, each call is replaced in place, and a
// `var _ = os.Exit` keeping the original import used goes after the last line.
func rewriteExits(filename, src string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return src // the compiler reports it
	}
	local := map[string]string{} // name in the file -> "os" or "log"
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if p != "os" && p != "log" {
			continue
		}
		name := path.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name != "_" && name != "." {
			local[name] = p
		}
	}
	if len(local) == 0 {
		return src
	}
	type edit struct {
		at, end int
		text    string
	}
	var edits []edit
	keep := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		fn := sel.Sel.Name
		switch local[id.Name] {
		case "os":
			if fn != "Exit" {
				return true
			}
		case "log":
			if fn != "Fatal" && fn != "Fatalf" && fn != "Fatalln" {
				return true
			}
		default:
			return true
		}
		edits = append(edits, edit{fset.Position(sel.Pos()).Offset, fset.Position(sel.End()).Offset, nativeAlias + "." + fn})
		keep[id.Name] = fn
		return true
	})
	if len(edits) == 0 {
		return src
	}
	pkgEnd := fset.Position(f.Name.End()).Offset
	edits = append(edits, edit{pkgEnd, pkgEnd, `; import ` + nativeAlias + ` "github.com/stratahq/strata/kernel/native"`})
	sort.Slice(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	out := src
	for _, e := range edits {
		out = out[:e.at] + e.text + out[e.end:]
	}
	names := make([]string, 0, len(keep))
	for n := range keep {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		out += "\nvar _ = " + n + "." + keep[n] + " // keeps the import used (added by strata's compiled build)"
	}
	return out + "\n"
}
