package interp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"regexp"
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

// NeedsCompiledPrefix starts every diagnostic about valid Go that the
// interpreter cannot run (kind protocol.ErrUnsupported): such a block runs
// compiled. See doc.go.
const NeedsCompiledPrefix = "needs compiled: "

var undefinedQualified = regexp.MustCompile(`^undefined: (\w+)\.(\w+)$`)

// missingUnexported is a type error that a method the importer's interface
// has is missing from a type: unexported, so reflect does not show it.
var missingUnexported = regexp.MustCompile(`\(missing method ([a-z_]\w*)\)`)

// analysis is a parsed, type-checked block ready to be rewritten and run.
type analysis struct {
	fset *token.FileSet
	file *ast.File // the block's own file; rewrites and checks look at one file at a time
	// files is every file of the block's package, the block's own first;
	// names and srcs are theirs.
	files []*ast.File
	names []string
	srcs  []string
	info  *types.Info
	pkg   *types.Package
	// sourcePkg reports whether an import is interpreted from source
	// (generic packages) rather than called natively.
	sourcePkg func(path string) bool
	entry     string
	check     bool // declares Check
	// tables is the number of *sdk.Table parameters of the entry.
	tables int
	// hasVars: package-level variables make a cached interpreter unsafe to reuse.
	hasVars bool
	// hasInit: init functions run when the block loads, so each run loads
	// it again (a cached interpreter would skip them).
	hasInit bool
	// importer type-checks the package again in Go's file order, for the
	// order of its package variables (unsupported_initorder.go).
	importer types.Importer
}

// analyze parses and type-checks src and verifies the block contract. Every
// problem comes back as a RunError whose diagnostics carry file positions.
func (e *Executor) analyze(filename, src, wantEntry string, allow map[string]bool, extra ...protocol.SourceFile) (*analysis, *protocol.RunError) {
	fset := token.NewFileSet()
	a := &analysis{fset: fset, sourcePkg: e.importer.fromSource, importer: e.importer}
	all := append([]protocol.SourceFile{{Name: filename, Source: src}}, extra...)
	for _, sf := range all {
		f, err := parser.ParseFile(fset, sf.Name, sf.Source, parser.SkipObjectResolution)
		if err != nil {
			return nil, diagError(protocol.ErrCompile, sf.Name, scannerDiagnostics(sf.Name, err))
		}
		if len(a.files) > 0 && f.Name.Name != a.files[0].Name.Name {
			p := fset.Position(f.Name.Pos())
			return nil, diagError(protocol.ErrCompile, sf.Name, []protocol.Diagnostic{{File: sf.Name, Line: p.Line, Column: p.Column,
				Message: fmt.Sprintf("package %s, but the block's package is %s: the files of a block's folder are one package", f.Name.Name, a.files[0].Name.Name)}})
		}
		a.files, a.names, a.srcs = append(a.files, f), append(a.names, sf.Name), append(a.srcs, sf.Source)
	}
	f := a.files[0]
	a.file = f

	var diags []protocol.Diagnostic
	at := func(pos token.Pos, format string, args ...any) {
		p := fset.Position(pos)
		file := p.Filename
		if file == "" {
			file = filename
		}
		diags = append(diags, protocol.Diagnostic{File: file, Line: p.Line, Column: p.Column, Message: fmt.Sprintf(format, args...)})
	}
	kind := protocol.ErrUnsupported
	var imports []*ast.ImportSpec
	for _, af := range a.files {
		imports = append(imports, af.Imports...)
	}
	for _, imp := range imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if why, ok := restricted[path]; ok && !allow[path] {
			at(imp.Pos(), "import %q is refused: it lets a block %s; a project opts in with `kernel: {allow: [%s]}` in strata.yaml", path, why, path)
			kind = protocol.ErrRefused
			continue
		}
		if path == SDKPath || e.importer.has(path) {
			continue
		}
		if since, std := stdPackageSince[path]; std || path == "embed" {
			if path == "embed" {
				since = "go1.16"
			}
			at(imp.Pos(), "%spackage %q (%s) is not in the kernel's interpreter, which has the standard library of Go 1.22 (yaegi v0.16)", NeedsCompiledPrefix, path, strings.Replace(since, "go", "Go ", 1))
			continue
		}
		if why, ok := moduleGap(path); ok {
			at(imp.Pos(), "%s%s", NeedsCompiledPrefix, why)
			continue
		}
		at(imp.Pos(), "package %q is a module's package, and this kernel has the Go standard library and %s only: blocks import modules through the project's go.mod, run in a project kernel built with the Go toolchain", path, SDKPath)
		kind = protocol.ErrRefused
	}
	if len(diags) > 0 {
		return nil, diagError(kind, filename, diags)
	}
	locals := map[string]string{} // import name -> path, to place "undefined: pkg.Name"
	for _, imp := range imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if pkg, err := e.importer.Import(path); err == nil {
			// The package's own name: github.com/jackc/pgx/v5 is pgx,
			// gopkg.in/yaml.v3 is yaml, not the path's last element.
			name = pkg.Name()
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		locals[name] = path
	}

	a.info = &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Instances:  map[*ast.Ident]types.Instance{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{}, // a type switch clause's variable (lower_fresh_vars.go)
	}
	conf := types.Config{
		Importer: e.importer,
		// The language the toolchain speaks: what yaegi lacks is lowered by
		// rewrite.go or classified by unsupported.go, not refused as invalid.
		GoVersion: "go1.26",
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && !te.Soft {
				if m := undefinedQualified.FindStringSubmatch(te.Msg); m != nil {
					if since, ok := stdGenericTypes[locals[m[1]]+"."+m[2]]; ok {
						at(te.Pos, "%s%s.%s (generic, %s) is not in the kernel's interpreter: yaegi cannot import the standard library's generic types", NeedsCompiledPrefix, m[1], m[2], strings.Replace(since, "go", "Go ", 1))
						return
					}
					if carriesModule(locals[m[1]]) {
						at(te.Pos, "%s%s.%s is not in the project kernel's symbol tables of %s: they carry no generic functions or types (yaegi's extract cannot)", NeedsCompiledPrefix, m[1], m[2], locals[m[1]])
						return
					}
					if since, ok := stdAPISince[locals[m[1]]+"."+m[2]]; ok {
						at(te.Pos, "%s%s.%s (%s) is not in the kernel's interpreter, which has the standard library of Go 1.22 (yaegi v0.16) and its own slices and maps", NeedsCompiledPrefix, m[1], m[2], strings.Replace(since, "go", "Go ", 1))
						return
					}
				}
				if m := missingUnexported.FindStringSubmatch(te.Msg); m != nil {
					// reflect lists an interface's unexported methods but
					// not a concrete type's (arrow's array.Builder and
					// *array.StringBuilder): valid Go the tables cannot show.
					at(te.Pos, "%s%s: the interpreter's symbol tables do not carry the unexported method %s", NeedsCompiledPrefix, strings.SplitN(te.Msg, "\n", 2)[0], m[1])
					return
				}
				at(te.Pos, "%s", te.Msg)
			} else if ok && te.Soft && strings.Contains(te.Msg, "declared and not used") {
				at(te.Pos, "%s", te.Msg)
			}
		},
	}
	a.pkg, _ = conf.Check(f.Name.Name, fset, a.files, a.info)
	// Against the kernel's own slices and maps, written-out type arguments
	// are not Go's (unsupported_overlay.go): only that is reported.
	typeDiags := diags
	diags = nil
	a.overlayTypeArgs(func(pos token.Pos, format string, args ...any) { at(pos, NeedsCompiledPrefix+format, args...) })
	if len(diags) > 0 {
		sortDiagnostics(diags)
		return nil, diagError(protocol.ErrUnsupported, filename, diags)
	}
	diags = typeDiags
	for i := range a.files {
		diags = append(diags, e.unsupported(a.view(i), a.names[i])...)
	}
	if len(diags) > 0 {
		sortDiagnostics(diags)
		// Unsupported only when compiling would fix every problem.
		kind := protocol.ErrUnsupported
		for _, d := range diags {
			if !strings.HasPrefix(d.Message, NeedsCompiledPrefix) {
				kind = protocol.ErrCompile
			}
		}
		return nil, diagError(kind, filename, diags)
	}
	if rerr := a.contract(filename, wantEntry); rerr != nil {
		return nil, rerr
	}
	var decls []ast.Decl
	for _, af := range a.files {
		decls = append(decls, af.Decls...)
	}
	for _, d := range decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
			a.hasInit = true
		}
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

// view is the analysis as seen from file i: rewrites and per-file checks
// (imports, qualifiers) look at a.file.
func (a *analysis) view(i int) *analysis {
	v := *a
	v.file = a.files[i]
	return &v
}

// multiFile reports whether the block's package has more than its own file.
func (a *analysis) multiFile() bool { return len(a.files) > 1 }

// contract finds the entry function and checks its signature against DESIGN.md:
//
//	func Load(ctx *sdk.Context) (*sdk.Table, error)
//	func Transform(ctx *sdk.Context, in ...*sdk.Table) (*sdk.Table, error)
//	func Export(ctx *sdk.Context, in ...*sdk.Table) error
//	func Check(ctx *sdk.Context, out *sdk.Table) error
func (a *analysis) contract(filename, want string) *protocol.RunError {
	funcs := map[string]*ast.FuncDecl{}
	for _, f := range a.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = fd
			}
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
		if p.Filename != "" {
			filename = p.Filename
		}
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
		if diags[0].File != "" {
			e.File = diags[0].File // a block of several files: the file the problem is in
		}
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

// NeedsCompiled reports why the interpreter cannot run a block faithfully:
// the "needs compiled" diagnostics of the block's analysis, or none when it
// can run (or when the block has other errors, which compiling would not
// fix). It only parses and type-checks; nothing runs. extra are the other
// files of the block's package (ExecRequest.Files).
func (e *Executor) NeedsCompiled(filename, src string, allow []string, extra ...protocol.SourceFile) []protocol.Diagnostic {
	allowed := map[string]bool{}
	for _, p := range allow {
		allowed[p] = true
	}
	_, rerr := e.analyze(filename, src, "", allowed, extra...)
	if rerr == nil || rerr.Kind != protocol.ErrUnsupported {
		return nil
	}
	return rerr.Diagnostics
}

// CompileError parses and type-checks a block and checks its contract (the
// entry function, wantEntry when set), running nothing: the error compiling
// it would also meet (kind protocol.ErrCompile), with the file, line and
// column of each problem, or nil. What only the interpreter cannot run, and
// imports this process's interpreter does not have (a project kernel's
// modules), are not compile errors: nil.
func (e *Executor) CompileError(filename, src, wantEntry string, allow []string, extra ...protocol.SourceFile) *protocol.RunError {
	allowed := map[string]bool{}
	for _, p := range allow {
		allowed[p] = true
	}
	_, rerr := e.analyze(filename, src, wantEntry, allowed, extra...)
	if rerr == nil || rerr.Kind != protocol.ErrCompile {
		return nil
	}
	return rerr
}

// stdGenericTypes are generic standard-library types older than Go 1.21
// (stdAPISince lists the newer names) that yaegi's symbol tables cannot
// hold, with the release that added them.
var stdGenericTypes = map[string]string{
	"sync/atomic.Pointer": "go1.19",
}
