package project

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// SDKImportPath is the package Go blocks import for Context and Table.
const SDKImportPath = "github.com/stratahq/strata/blocks/sdk"

// Entry function names of a Go block; exactly one must be defined.
const (
	EntryLoad      = "Load"
	EntryTransform = "Transform"
	EntryExport    = "Export"
	checkFunc      = "Check"
)

var entryNames = []string{EntryLoad, EntryTransform, EntryExport}

// resolveSource decides which file holds a block, sets File, Path and Kind,
// and records a problem when the file is missing. It reports whether the
// file exists, so the caller can go on to read it.
func (l *loader) resolveSource(d *decoder, b *Block) bool {
	at := index("blocks", b.index)
	if e, ok := b.fields["file"]; ok {
		if b.File == "" {
			return false // not a usable string; already reported
		}
		abs, err := SafeJoin(l.proj.Dir, b.File)
		if err != nil {
			d.addf(e.val, at+".file", "%s", err)
			return false
		}
		b.File, b.Path = path.Clean(filepath.ToSlash(b.File)), abs
		var kind string
		switch strings.ToLower(path.Ext(b.File)) {
		case ".go":
			kind = KindGo
		case ".sql":
			kind = KindSQL
		default:
			d.addf(e.val, at+".file", "file %s is neither a .go nor a .sql file", b.File)
			return false
		}
		if b.Kind != "" && b.Kind != kind {
			d.addf(b.fields["kind"].val, at+".kind", "kind %s does not match file %s: the kind follows the file extension; remove kind", b.Kind, b.File)
		}
		b.Kind = kind
		if err := l.regularFile(abs); err != nil {
			hint := ""
			if def := l.defaultSource(b.ID, kind); def != "" && def != b.File {
				hint = fmt.Sprintf(" (did you mean %q?)", def)
			}
			d.addf(e.val, at+".file", "block file %s %s%s", b.File, err, hint)
			return false
		}
		return true
	}
	if ValidateBlockID(b.ID) != nil {
		return false // already reported; no default path can be derived
	}
	goRel, sqlRel := goDefault(b.ID), sqlDefault(b.ID)
	for _, c := range []struct{ kind, rel string }{{KindGo, goRel}, {KindSQL, sqlRel}} {
		if b.Kind != "" && b.Kind != c.kind {
			continue
		}
		abs, err := SafeJoin(l.proj.Dir, c.rel)
		if err != nil {
			d.addf(b.node, at+".file", "%s", err)
			return false
		}
		if l.regularFile(abs) == nil {
			b.File, b.Path, b.Kind = c.rel, abs, c.kind
			return true
		}
	}
	var msg string
	switch b.Kind {
	case KindGo:
		msg = fmt.Sprintf("missing block file %s: create it or set file", goRel)
	case KindSQL:
		msg = fmt.Sprintf("missing block file %s: create it or set file", sqlRel)
	default:
		msg = fmt.Sprintf("no file for block %q: create %s (Go) or %s (SQL), or set file", b.ID, goRel, sqlRel)
	}
	if others := l.goFilesIn(path.Dir(goRel)); len(others) > 0 && b.Kind != KindSQL {
		msg += fmt.Sprintf(" (%s/ holds %s; set file: %s/%s)", path.Dir(goRel), quoteList(others), path.Dir(goRel), others[0])
	}
	d.addf(b.node, at+".file", "%s", msg)
	return false
}

func goDefault(id string) string  { return "blocks/" + id + "/" + id + ".go" }
func sqlDefault(id string) string { return "blocks/" + id + ".sql" }

// defaultSource returns the default file of a block of that kind when it
// exists, to suggest it when an explicit file is missing.
func (l *loader) defaultSource(id, kind string) string {
	if ValidateBlockID(id) != nil {
		return ""
	}
	rel := map[string]string{KindGo: goDefault(id), KindSQL: sqlDefault(id)}[kind]
	if abs, err := SafeJoin(l.proj.Dir, rel); err == nil && l.regularFile(abs) == nil {
		return rel
	}
	return ""
}

// regularFile returns nil when abs is an existing file, else the reason.
func (l *loader) regularFile(abs string) error {
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("does not exist")
	case err != nil:
		return fmt.Errorf("cannot be read: %w", err)
	case fi.IsDir():
		return errors.New("is a folder, not a file")
	}
	return nil
}

// goFilesIn lists the non-test .go files of a project folder, sorted.
func (l *loader) goFilesIn(rel string) []string {
	abs, err := SafeJoin(l.proj.Dir, rel)
	if err != nil {
		return nil
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			names = append(names, n)
		}
	}
	return names
}

var sqlComment = regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`)

// inspectSQL reports an SQL file that holds nothing but blanks and comments.
func (l *loader) inspectSQL(b *Block) Problems {
	data, err := os.ReadFile(b.Path)
	if err != nil {
		return Problems{{File: b.File, Message: fmt.Sprintf("cannot read the block file: %v", err)}}
	}
	if strings.TrimSpace(sqlComment.ReplaceAllString(string(data), "")) == "" {
		return Problems{{File: b.File, Line: 1, Column: 1,
			Message: "empty SQL file: write a SELECT; its result becomes the block's output"}}
	}
	return nil
}

// goFunc is an entry function or Check found in a block package.
type goFunc struct {
	name   string
	at     string // file:line, for messages
	file   string
	line   int
	col    int
	tables int // *sdk.Table parameters; -1 when the signature is wrong
}

// goPackage is what loading learns from a Go block's folder, parsed once
// per load even when several pipelines use the block.
type goPackage struct {
	entries []goFunc
	check   *goFunc
	broken  bool     // syntax errors: the tree is partial, so contract problems are not reported
	probs   Problems // reported
	pending Problems // contract problems, reported only when the package parses
}

// inspectGo parses every non-test .go file in the block's folder and checks
// the entry and Check signatures against the block contract: a Go block is a
// package, so helpers (and Check) may live in other files of its folder;
// _test.go files are ignored. Nothing is compiled or run.
func (l *loader) inspectGo(b *Block) *goPackage {
	relDir := path.Dir(b.File)
	if pkg, ok := l.pkgs[relDir]; ok {
		return pkg
	}
	pkg := &goPackage{}
	l.pkgs[relDir] = pkg
	fset := token.NewFileSet()
	var files []*ast.File
	var rels []string
	for _, name := range l.goFilesIn(relDir) {
		rel := path.Join(relDir, name)
		src, err := os.ReadFile(filepath.Join(filepath.Dir(b.Path), name))
		if err != nil {
			pkg.probs = append(pkg.probs, Problem{File: rel, Message: fmt.Sprintf("cannot read: %v", err)})
			pkg.broken = true
			continue
		}
		f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
		if err != nil {
			pkg.broken = true
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					pkg.probs = append(pkg.probs, Problem{File: rel, Line: e.Pos.Line, Column: e.Pos.Column, Message: "syntax error: " + e.Msg})
				}
			} else {
				pkg.probs = append(pkg.probs, Problem{File: rel, Message: "syntax error: " + err.Error()})
			}
		}
		if f != nil {
			files = append(files, f)
			rels = append(rels, rel)
		}
	}
	var near []string // top-level functions whose names look like a misspelt entry
	for i, f := range files {
		if f.Name.Name == "main" {
			pkg.add(fset, f.Name, `"package main" cannot be imported by the worker that compiles blocks: name the package after the block`)
		}
		sdk := sdkName(f)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil {
				continue
			}
			name := fn.Name.Name
			if name != checkFunc && !slices.Contains(entryNames, name) {
				if c := closest(name, entryNames); c != "" {
					near = append(near, fmt.Sprintf("func %s looks like %s", name, c))
				}
				continue
			}
			gf := pkg.signature(fset, fn, sdk)
			pos := fset.Position(fn.Name.Pos())
			gf.file, gf.line, gf.col = rels[i], pos.Line, pos.Column
			gf.at = fmt.Sprintf("%s:%d", rels[i], pos.Line)
			if name == checkFunc {
				pkg.check = &gf
			} else {
				pkg.entries = append(pkg.entries, gf)
			}
		}
	}
	if pkg.broken || len(files) == 0 {
		return pkg
	}
	pkg.checkEntries(fset, files[0], near)
	pkg.probs = append(pkg.probs, pkg.pending...)
	return pkg
}

// checkEntries reports a package without an entry function, with more than
// one, or an Export with a Check. near lists functions that look like a
// misspelt entry, to mention when none is found.
func (pkg *goPackage) checkEntries(fset *token.FileSet, first *ast.File, near []string) {
	switch len(pkg.entries) {
	case 0:
		msg := "no entry function: define Load, Transform or Export, such as func Load(ctx *sdk.Context) (*sdk.Table, error)"
		if len(near) > 0 {
			msg += " (" + strings.Join(near, "; ") + ")"
		}
		pkg.add(fset, first.Name, msg)
	case 1:
		if e := pkg.entries[0]; e.name == EntryExport && pkg.check != nil {
			c := pkg.check
			pkg.pending = append(pkg.pending, Problem{File: c.file, Line: c.line, Column: c.col,
				Message: "Check inspects the block's output, but an Export block returns none: remove Check or make the block a Transform"})
		}
	default:
		var where []string
		for _, e := range pkg.entries {
			where = append(where, e.name+" at "+e.at)
		}
		second := pkg.entries[1]
		pkg.pending = append(pkg.pending, Problem{File: second.file, Line: second.line, Column: second.col,
			Message: fmt.Sprintf("%d entry functions (%s): a Go block has exactly one; split the work into two blocks",
				len(pkg.entries), strings.Join(where, ", "))})
	}
}

// add records a contract problem at node n.
func (pkg *goPackage) add(fset *token.FileSet, n ast.Node, msg string) {
	pos := fset.Position(n.Pos())
	pkg.pending = append(pkg.pending, Problem{File: pos.Filename, Line: pos.Line, Column: pos.Column, Message: msg})
}

// sdkName is the name a file uses for the SDK package: "sdk", an alias, "."
// for a dot import, or "" when the file does not import it.
func sdkName(f *ast.File) string {
	for _, imp := range f.Imports {
		if strings.Trim(imp.Path.Value, "`\"") != SDKImportPath {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return "sdk"
	}
	return ""
}

// isSDKPointer reports whether expr is *sdk.<typ> for the file's SDK name.
func isSDKPointer(expr ast.Expr, sdk, typ string) bool {
	star, ok := expr.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && sdk != "." && id.Name == sdk && x.Sel.Name == typ
	case *ast.Ident:
		return sdk == "." && x.Name == typ
	}
	return false
}

// flatten lists one type per parameter: (a, b *sdk.Table) is two.
func flatten(fl *ast.FieldList) []ast.Expr {
	var out []ast.Expr
	if fl == nil {
		return out
	}
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			out = append(out, f.Type)
		}
	}
	return out
}

// signature checks fn against the block contract and returns how many
// tables it takes (-1 when the signature is wrong, after reporting why):
//
//	func Load(ctx *sdk.Context) (*sdk.Table, error)
//	func Transform(ctx *sdk.Context, a, b *sdk.Table) (*sdk.Table, error)
//	func Export(ctx *sdk.Context, a *sdk.Table) error
//	func Check(ctx *sdk.Context, out *sdk.Table) error
func (pkg *goPackage) signature(fset *token.FileSet, fn *ast.FuncDecl, sdk string) goFunc {
	name := fn.Name.Name
	gf := goFunc{name: name, tables: -1}
	if sdk == "" {
		pkg.add(fset, fn.Name, fmt.Sprintf("%s takes *sdk.Context and *sdk.Table, but the file does not import %q", name, SDKImportPath))
		return gf
	}
	if fn.Type.TypeParams != nil && len(fn.Type.TypeParams.List) > 0 {
		pkg.add(fset, fn.Type.TypeParams, fmt.Sprintf("%s cannot have type parameters", name))
		return gf
	}
	ok := true
	params := flatten(fn.Type.Params)
	if len(params) == 0 || !isSDKPointer(params[0], sdk, "Context") {
		got := "no parameters"
		var at ast.Node = fn.Name
		if len(params) > 0 {
			got, at = types.ExprString(params[0]), params[0]
		}
		pkg.add(fset, at, fmt.Sprintf("%s must take ctx *sdk.Context as its first parameter, got %s", name, got))
		ok = false
	}
	tables := 0
	for i, p := range params {
		if i == 0 {
			continue
		}
		if !isSDKPointer(p, sdk, "Table") {
			pkg.add(fset, p, fmt.Sprintf("parameter %d of %s has type %s, want *sdk.Table (one per upstream block, in upstream order)", i+1, name, types.ExprString(p)))
			ok = false
			continue
		}
		tables++
	}
	switch {
	case name == EntryLoad && tables > 0:
		pkg.add(fset, fn.Name, "Load takes no tables: a block that reads upstream outputs is a Transform (or an Export)")
		ok = false
	case name == checkFunc && len(params) != 2:
		pkg.add(fset, fn.Name, fmt.Sprintf("Check must take (ctx *sdk.Context, out *sdk.Table), got %s", plural(len(params), "parameter")))
		ok = false
	}
	results := flatten(fn.Type.Results)
	wantTable := name == EntryLoad || name == EntryTransform
	good := false
	if wantTable {
		good = len(results) == 2 && isSDKPointer(results[0], sdk, "Table") && isErrorType(results[1])
	} else {
		good = len(results) == 1 && isErrorType(results[0])
	}
	if !good {
		want := "error"
		if wantTable {
			want = "(*sdk.Table, error)"
		}
		pkg.add(fset, fn.Name, fmt.Sprintf("%s must return %s, got %s", name, want, describeResults(results)))
		ok = false
	}
	if ok {
		gf.tables = tables
	}
	return gf
}

func isErrorType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "error"
}

func describeResults(results []ast.Expr) string {
	if len(results) == 0 {
		return "nothing"
	}
	parts := make([]string, len(results))
	for i, r := range results {
		parts[i] = types.ExprString(r)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
