package projectkernel

import (
	"go/parser"
	"go/token"
	"sort"
	"strconv"

	"github.com/stratahq/strata/kernel/interp"
)

// Imports lists, sorted, the third-party packages Go sources import: what a
// project kernel must carry to run them. A source that does not parse
// contributes what its import block says, if that much parses.
func Imports(srcs ...string) []string {
	seen := map[string]bool{}
	for _, src := range srcs {
		f, err := parser.ParseFile(token.NewFileSet(), "block.go", src, parser.ImportsOnly)
		if f == nil && err != nil {
			continue
		}
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && interp.IsModuleImport(p) {
				seen[p] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Covers reports whether a kernel carrying have can run a block importing
// want: every wanted package is in have.
func Covers(have, want []string) bool {
	set := map[string]bool{}
	for _, p := range have {
		set[p] = true
	}
	for _, p := range want {
		if !set[p] {
			return false
		}
	}
	return true
}
