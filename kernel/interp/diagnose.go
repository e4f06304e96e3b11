package interp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/stratahq/strata/kernel/protocol"
)

// SDKPath is the import path blocks use for the SDK.
const SDKPath = "github.com/stratahq/strata/blocks/sdk"

// restricted imports need the project's opt-in (strata.yaml kernel.allow).
var restricted = map[string]string{
	"os/exec": "run other programs",
	"unsafe":  "bypass Go's memory safety",
	"syscall": "make raw system calls",
	"plugin":  "load native code",
}

// entryNames are the block contract's entry functions, in lookup order.
var entryNames = []string{"Load", "Transform", "Export"}

// analysis is a parsed, type-checked block ready to be rewritten and run.
type analysis struct {
	fset  *token.FileSet
	file  *ast.File
	info  *types.Info
	entry string
	check bool // declares Check
	// tables is the number of *sdk.Table parameters of the entry.
	tables int
	// hasVars: package-level variables make a cached interpreter unsafe to reuse.
	hasVars bool
}

// analyze parses and type-checks src and verifies the block contract. Every
// problem comes back as a RunError whose diagnostics carry file positions.
func (e *Executor) analyze(filename, src, wantEntry string, allow map[string]bool) (*analysis, *protocol.RunError) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, diagError(protocol.ErrCompile, filename, scannerDiagnostics(filename, err))
	}
	a := &analysis{fset: fset, file: f}

	var diags []protocol.Diagnostic
	at := func(pos token.Pos, format string, args ...any) {
		p := fset.Position(pos)
		diags = append(diags, protocol.Diagnostic{File: filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(format, args...)})
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if why, ok := restricted[path]; ok && !allow[path] {
			at(imp.Pos(), "import %q is refused: it lets a block %s; a project opts in with `kernel: {allow: [%s]}` in strata.yaml", path, why, path)
			continue
		}
		if path != SDKPath && !e.importer.has(path) {
			at(imp.Pos(), "package %q is not available in the kernel: blocks can import the Go standard library and %s", path, SDKPath)
		}
	}
	if len(diags) > 0 {
		return nil, diagError(protocol.ErrRefused, filename, diags)
	}

	a.info = &types.Info{
		Types:     map[ast.Expr]types.TypeAndValue{},
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Instances: map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{
		Importer:  e.importer,
		GoVersion: "go1.22", // what yaegi implements; newer syntax is diagnosed below with advice
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && !te.Soft {
				at(te.Pos, "%s", te.Msg)
			} else if ok && te.Soft && strings.Contains(te.Msg, "declared and not used") {
				at(te.Pos, "%s", te.Msg)
			}
		},
	}
	_, _ = conf.Check(f.Name.Name, fset, []*ast.File{f}, a.info)
	diags = append(diags, e.unsupported(a, filename)...)
	if len(diags) > 0 {
		sortDiagnostics(diags)
		kind := protocol.ErrCompile
		if strings.Contains(diags[0].Message, "the kernel's interpreter") {
			kind = protocol.ErrUnsupported
		}
		return nil, diagError(kind, filename, diags)
	}
	if rerr := a.contract(filename, wantEntry); rerr != nil {
		return nil, rerr
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			for _, n := range spec.(*ast.ValueSpec).Names {
				a.hasVars = a.hasVars || n.Name != "_" // `var _ = x` holds no state
			}
		}
	}
	return a, nil
}

// contract finds the entry function and checks its signature against DESIGN.md:
//
//	func Load(ctx *sdk.Context) (*sdk.Table, error)
//	func Transform(ctx *sdk.Context, in ...*sdk.Table) (*sdk.Table, error)
//	func Export(ctx *sdk.Context, in ...*sdk.Table) error
//	func Check(ctx *sdk.Context, out *sdk.Table) error
func (a *analysis) contract(filename, want string) *protocol.RunError {
	funcs := map[string]*ast.FuncDecl{}
	for _, d := range a.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			funcs[fd.Name.Name] = fd
		}
	}
	var found []string
	for _, n := range entryNames {
		if funcs[n] != nil {
			found = append(found, n)
		}
	}
	fail := func(pos token.Pos, format string, args ...any) *protocol.RunError {
		p := a.fset.Position(pos)
		return diagError(protocol.ErrCompile, filename, []protocol.Diagnostic{{File: filename, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(format, args...)}})
	}
	switch {
	case want != "" && funcs[want] == nil:
		return fail(a.file.Name.Pos(), "block has no %s function (it declares %s)", want, orNone(found))
	case want != "":
		a.entry = want
	case len(found) == 0:
		return fail(a.file.Name.Pos(), "block declares no entry function: want one of func Load(ctx *sdk.Context) (*sdk.Table, error), func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) or func Export(ctx *sdk.Context, in *sdk.Table) error")
	case len(found) > 1:
		return fail(funcs[found[1]].Pos(), "block declares %s: a block has exactly one entry function", strings.Join(found, " and "))
	default:
		a.entry = found[0]
	}

	fd := funcs[a.entry]
	sig := a.info.Defs[fd.Name].Type().(*types.Signature)
	params := sig.Params()
	if params.Len() == 0 || !isSDKPointer(params.At(0).Type(), "Context") {
		return fail(fd.Type.Pos(), "%s must take ctx *sdk.Context as its first parameter", a.entry)
	}
	for i := 1; i < params.Len(); i++ {
		if !isSDKPointer(params.At(i).Type(), "Table") {
			return fail(fd.Type.Params.Pos(), "%s parameter %d is %s: upstream tables arrive as *sdk.Table", a.entry, i+1, params.At(i).Type())
		}
	}
	a.tables = params.Len() - 1
	if a.entry == "Load" && a.tables > 0 {
		return fail(fd.Type.Params.Pos(), "Load takes no tables (it has no upstream); use Transform to read upstream tables")
	}
	if sig.Variadic() {
		return fail(fd.Type.Params.Pos(), "%s cannot be variadic: upstream tables bind to parameters by position", a.entry)
	}
	res := sig.Results()
	wantTable := a.entry != "Export"
	okResults := (wantTable && res.Len() == 2 && isSDKPointer(res.At(0).Type(), "Table") && isError(res.At(1).Type())) ||
		(!wantTable && res.Len() == 1 && isError(res.At(0).Type()))
	if !okResults {
		want := "(*sdk.Table, error)"
		if !wantTable {
			want = "error"
		}
		return fail(fd.Type.Pos(), "%s must return %s", a.entry, want)
	}
	if cd := funcs["Check"]; cd != nil {
		csig := a.info.Defs[cd.Name].Type().(*types.Signature)
		if csig.Params().Len() != 2 || !isSDKPointer(csig.Params().At(0).Type(), "Context") || !isSDKPointer(csig.Params().At(1).Type(), "Table") ||
			csig.Results().Len() != 1 || !isError(csig.Results().At(0).Type()) {
			return fail(cd.Type.Pos(), "Check must be func Check(ctx *sdk.Context, out *sdk.Table) error")
		}
		if a.entry == "Export" {
			return fail(cd.Pos(), "Check needs an output table; an Export block has none")
		}
		a.check = true
	}
	return nil
}

func isSDKPointer(t types.Type, name string) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == SDKPath
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// diagError builds a RunError of the given kind that carries diags and takes
// its message and position from the first one.
func diagError(kind protocol.ErrorKind, filename string, diags []protocol.Diagnostic) *protocol.RunError {
	e := &protocol.RunError{Kind: kind, File: filename, Diagnostics: diags}
	if len(diags) > 0 {
		e.Message, e.Line, e.Column = diags[0].Message, diags[0].Line, diags[0].Column
	}
	return e
}

func scannerDiagnostics(filename string, err error) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	if list, ok := err.(scanner.ErrorList); ok {
		for _, e := range list {
			out = append(out, protocol.Diagnostic{File: filename, Line: e.Pos.Line, Column: e.Pos.Column, Message: e.Msg})
		}
		return out
	}
	return []protocol.Diagnostic{{File: filename, Message: err.Error()}}
}

func sortDiagnostics(d []protocol.Diagnostic) {
	sort.SliceStable(d, func(i, j int) bool {
		if d[i].Line != d[j].Line {
			return d[i].Line < d[j].Line
		}
		return d[i].Column < d[j].Column
	})
}
