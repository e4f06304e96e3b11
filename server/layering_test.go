package server

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"
)

// The web layer adapts HTTP to projects/: it imports nothing from kernel/
// (cmd/strata assembles pools and kernels and hands them over). Tests may,
// since they assemble a server as cmd/strata does.
func TestServerImportsNoKernel(t *testing.T) {
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/stratahq/strata/kernel/") {
				t.Errorf("%s imports %s: server/ must see only projects/ (wire kernels in cmd/strata)", fset.Position(imp.Pos()), path)
			}
		}
	}
}
