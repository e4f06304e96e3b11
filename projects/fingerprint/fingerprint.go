// Package fingerprint says what a block computes as a short hash that
// changes only when the block's output could change: the meaning of its
// source files (not their comments or layout) and the values of the
// pipeline variables it can read.
//
// Staleness compares the fingerprint a version was written with (the
// catalog's code_hash) to the block's fingerprint now; the notebook uses the
// same Block function for "this cell is stale". It knows nothing of the
// warehouse, of runs or of pipelines beyond the files and variables handed
// to it.
package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// File is one source file of a block.
type File struct {
	Path string // its name decides the language: .go or .sql
	Src  []byte
}

// Block is the fingerprint of a block made of files (a SQL block is one
// file; a Go block every .go file of its package) that runs with vars, the
// pipeline's variables. Only the variables the block can read count: a SQL
// block reads none, a Go block those it names in ctx.Var("name", …) calls,
// or all of them when it reads ctx.Vars or computes a name.
//
// A one-file block that reads no variable keeps its plain code hash (Code),
// so versions written before variables counted stay current.
func Block(files []File, vars map[string]string) string {
	files, gomod := splitModFile(files)
	base := blockBase(files, vars)
	mods := Modules(files, gomod)
	if len(mods) == 0 {
		return base // a block importing no module: go.mod changes leave it current
	}
	h := sha256.New()
	h.Write([]byte(base + "\x00"))
	for _, m := range mods {
		h.Write([]byte(m + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func blockBase(files []File, vars map[string]string) string {
	base := ""
	if len(files) == 1 {
		base = Code(files[0].Path, files[0].Src)
	} else {
		sorted := slices.Clone(files)
		slices.SortFunc(sorted, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		h := sha256.New()
		for _, f := range sorted {
			h.Write([]byte(filepath.Base(f.Path) + "\x00" + Code(f.Path, f.Src) + "\x00"))
		}
		base = hex.EncodeToString(h.Sum(nil)[:8])
	}
	names := ReadVars(files, vars)
	if len(names) == 0 {
		return base
	}
	h := sha256.New()
	h.Write([]byte(base + "\x00"))
	for _, n := range names {
		v, ok := vars[n]
		if !ok {
			h.Write([]byte(n + "\x01\x00")) // unset differs from set to ""
			continue
		}
		h.Write([]byte(n + "\x00" + v + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// ReadVars lists, sorted, the variables a block can read: the names its Go
// files pass as constants to a Var method, or every name of vars when a file
// reads the Vars map, passes a computed name, or does not parse (then
// nothing can be ruled out). SQL files read no variables.
func ReadVars(files []File, vars map[string]string) []string {
	named := map[string]bool{}
	all := false
	for _, f := range files {
		if !strings.EqualFold(filepath.Ext(f.Path), ".go") {
			continue
		}
		if goVars(f.Src, named) {
			all = true
			break
		}
	}
	if all {
		named = map[string]bool{}
		for n := range vars {
			named[n] = true
		}
	}
	out := make([]string, 0, len(named))
	for n := range named {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// goVars adds the constant names of x.Var("name", …) calls to named; it
// reports true when the file may read any variable: it reads a Vars field,
// passes a computed name, takes the Var method as a value, or does not parse.
func goVars(src []byte, named map[string]bool) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "block.go", src, parser.SkipObjectResolution)
	if err != nil {
		return true
	}
	called := map[*ast.SelectorExpr]bool{}
	anyVar := false
	ast.Inspect(f, func(n ast.Node) bool {
		if anyVar {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Var" || len(n.Args) == 0 {
				return true
			}
			called[sel] = true
			lit, ok := n.Args[0].(*ast.BasicLit)
			name, err := "", error(nil)
			if ok && lit.Kind == token.STRING {
				name, err = strconv.Unquote(lit.Value)
			}
			if !ok || lit.Kind != token.STRING || err != nil {
				anyVar = true
				return false
			}
			named[name] = true
		case *ast.SelectorExpr:
			if n.Sel.Name == "Vars" || (n.Sel.Name == "Var" && !called[n]) {
				anyVar = true
				return false
			}
		}
		return true
	})
	return anyVar
}
