package fingerprint

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModFile is the path under which a block's files carry the project's
// go.mod (snapshot.BlockSources adds it): not code, but the versions of the
// modules the block imports, which change what it computes as surely as
// its code does.
const ModFile = "go.mod"

// splitModFile takes the project's go.mod out of a block's files.
func splitModFile(files []File) ([]File, []byte) {
	var gomod []byte
	out := files[:0:0]
	for _, f := range files {
		if f.Path == ModFile {
			gomod = f.Src
			continue
		}
		out = append(out, f)
	}
	return out, gomod
}

// Modules lists, sorted, the modules the block's Go files import packages
// of, as "path version" (with " => replacement" when go.mod replaces one),
// resolved through gomod's requirements. An import no requirement covers
// is listed as "path (not required)", so adding it to go.mod changes the
// fingerprint too. Standard-library and SDK imports are not modules here.
func Modules(files []File, gomod []byte) []string {
	var imports []string
	for _, f := range files {
		if !strings.EqualFold(filepath.Ext(f.Path), ".go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), "block.go", f.Src, parser.ImportsOnly)
		if af == nil && err != nil {
			continue
		}
		for _, imp := range af.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && isModuleImport(p) {
				imports = append(imports, p)
			}
		}
	}
	if len(imports) == 0 {
		return nil
	}
	var mf *modfile.File
	if len(gomod) > 0 {
		mf, _ = modfile.Parse("go.mod", gomod, nil)
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range imports {
		m := moduleOf(mf, p)
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out
}

// BlockModules is Modules of a block's files as BlockSources reads them
// (the project's go.mod among them as ModFile).
func BlockModules(files []File) []string {
	rest, gomod := splitModFile(files)
	return Modules(rest, gomod)
}

// WithModFile is files with the go.mod of from in place of its own: the
// block's code then, the module versions now.
func WithModFile(files, from []File) []File {
	out, _ := splitModFile(files)
	out = slices.Clone(out)
	for _, f := range from {
		if f.Path == ModFile {
			out = append(out, f)
		}
	}
	return out
}

// moduleOf is the requirement providing package p: the longest module
// path that is p or a prefix of it.
func moduleOf(mf *modfile.File, p string) string {
	best := ""
	ver := ""
	if mf != nil {
		for _, r := range mf.Require {
			mp := r.Mod.Path
			if (p == mp || strings.HasPrefix(p, mp+"/")) && len(mp) > len(best) {
				best, ver = mp, r.Mod.Version
			}
		}
	}
	if best == "" {
		return p + " (not required)"
	}
	out := best + " " + ver
	for _, r := range mf.Replace {
		if r.Old.Path == best && (r.Old.Version == "" || r.Old.Version == ver) {
			out += " => " + r.New.Path + " " + r.New.Version
		}
	}
	return out
}

// isModuleImport: a path whose first element has a dot, other than the SDK.
func isModuleImport(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return strings.Contains(first, ".") && !strings.HasPrefix(p+"/", "github.com/stratahq/strata/")
}
