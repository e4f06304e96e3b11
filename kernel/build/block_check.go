package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/protocol"
)

// Block is one Go block to compile.
type Block struct {
	// File is the entry file as runs name it (ExecRequest.Filename), e.g.
	// "blocks/raw_orders/raw_orders.go".
	File string
	// Source is the entry file's text.
	Source string
	// Others are the other .go files of the block's package (not _test.go),
	// by their project-relative path.
	Others map[string]string
	// Entry, when set, is the entry function the pipeline asks for.
	Entry string
}

// checked is a block that parsed and passed the pre-build checks.
type checked struct {
	Block
	pkg string // package name as declared
	// restricted maps each restricted import the block uses to the
	// message a run without the opt-in gets.
	restricted map[string]string
	entry      string
	tables     int
	check      bool
	entryPos   token.Position
	// embeds are the files its //go:embed patterns match, by path
	// relative to its folder (embeddedFiles).
	embeds map[string][]byte
	// reset: the package has state to set again before each run (its
	// generated StrataReset); fresh: it has, in an order the rewrite could
	// not work out, so the worker restarts after each run instead
	// (package_reset.go). Set by compile.
	reset, fresh bool
}

var entryNames = []string{"Load", "Transform", "Export"}

// checkBlock parses a block's files, refuses restricted imports without the
// opt-in and finds its entry function. Signatures are left to the compiler.
func checkBlock(b Block, allow map[string]bool) (*checked, *protocol.RunError) {
	fset := token.NewFileSet()
	files := map[string]string{b.File: b.Source}
	for f, src := range b.Others {
		files[f] = src
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	var diags []protocol.Diagnostic
	at := func(pos token.Position, format string, args ...any) {
		diags = append(diags, protocol.Diagnostic{File: pos.Filename, Line: pos.Line, Column: pos.Column, Message: fmt.Sprintf(format, args...)})
	}
	c := &checked{Block: b, restricted: map[string]string{}}
	funcs := map[string]*ast.FuncDecl{}
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], parser.SkipObjectResolution)
		if err != nil {
			if list, ok := err.(scanner.ErrorList); ok {
				for _, e := range list {
					at(e.Pos, "%s", e.Msg)
				}
			} else {
				at(token.Position{Filename: name}, "%v", err)
			}
			continue
		}
		if c.pkg == "" {
			c.pkg = f.Name.Name
		} else if f.Name.Name != c.pkg {
			at(fset.Position(f.Name.Pos()), "package %s, but %s is package %s: a block's files share one package", f.Name.Name, path.Base(b.File), c.pkg)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if msg, refused := interp.RefusedImport(p, nil); refused {
				c.restricted[p] = msg
				if !allow[p] {
					at(fset.Position(imp.Pos()), "%s", msg)
				}
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	if len(diags) > 0 {
		kind := protocol.ErrCompile
		for _, d := range diags {
			if strings.Contains(d.Message, "is refused") || strings.Contains(d.Message, "is not available") {
				kind = protocol.ErrRefused
			}
		}
		return nil, diagError(kind, b.File, diags)
	}
	fail := func(pos token.Pos, format string, args ...any) *protocol.RunError {
		p := fset.Position(pos)
		if !p.IsValid() {
			p.Filename = b.File
		}
		return diagError(protocol.ErrCompile, b.File, []protocol.Diagnostic{{File: p.Filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(format, args...)}})
	}
	var found []string
	for _, n := range entryNames {
		if funcs[n] != nil {
			found = append(found, n)
		}
	}
	switch {
	case b.Entry != "" && funcs[b.Entry] == nil:
		return nil, fail(token.NoPos, "block has no %s function (it declares %s)", b.Entry, orNone(found))
	case b.Entry != "":
		c.entry = b.Entry
	case len(found) == 0:
		return nil, fail(token.NoPos, "block declares no entry function: want one of func Load(ctx *sdk.Context) (*sdk.Table, error), func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) or func Export(ctx *sdk.Context, in *sdk.Table) error")
	case len(found) > 1:
		return nil, fail(funcs[found[1]].Pos(), "block declares %s: a block has exactly one entry function", strings.Join(found, " and "))
	default:
		c.entry = found[0]
	}
	fd := funcs[c.entry]
	c.entryPos = fset.Position(fd.Pos())
	if fd.Type.TypeParams != nil {
		return nil, fail(fd.Pos(), "%s cannot be generic", c.entry)
	}
	n := 0
	for _, f := range fd.Type.Params.List {
		n += max(1, len(f.Names))
	}
	c.tables = max(0, n-1)
	c.check = funcs["Check"] != nil
	if c.check && c.entry == "Export" {
		return nil, fail(funcs["Check"].Pos(), "Check needs an output table; an Export block has none")
	}
	return c, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// diagError builds a RunError of the given kind that carries diags and takes
// its message and position from the first one.
func diagError(kind protocol.ErrorKind, file string, diags []protocol.Diagnostic) *protocol.RunError {
	sort.SliceStable(diags, func(i, j int) bool {
		if diags[i].File != diags[j].File {
			return diags[i].File == file // the entry file's problems first
		}
		if diags[i].Line != diags[j].Line {
			return diags[i].Line < diags[j].Line
		}
		return diags[i].Column < diags[j].Column
	})
	e := &protocol.RunError{Kind: kind, File: file, Diagnostics: diags}
	if len(diags) > 0 {
		e.Message, e.Line, e.Column = diags[0].Message, diags[0].Line, diags[0].Column
		if diags[0].File != "" {
			e.File = diags[0].File
		}
	}
	return e
}

// otherFiles are the block's other files as a run sends them.
func (b *Block) otherFiles() []protocol.SourceFile {
	var files []protocol.SourceFile
	for _, f := range sortedKeys(b.Others) {
		files = append(files, protocol.SourceFile{Name: f, Source: b.Others[f]})
	}
	return files
}
