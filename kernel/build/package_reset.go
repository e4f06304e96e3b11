package build

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"

	"github.com/stratahq/strata/kernel/procstate"
)

// Package state between runs. A compiled worker serves many runs (a
// backfill's partitions) in one process, so a block's package variables
// kept what the last run left: `var seen = map[string]bool{}` filled across
// partitions, and what a partition got depended on which worker ran it
// before (counts 2, 3, 1, 1, 2, 4 for six days where `go run` and the
// interpreter give 1 each time). So each run starts as a fresh process
// would: before it, the worker sets every package variable again, in Go's
// initialization order, and runs the package's init functions.
//
// The rewrite moves no line of the block. Each file gets, after its last
// line, one function per variable declaration that assigns the
// declaration's values again (written in that file, so its imports and
// names mean what they mean there; a /*line*/ comment places it at the
// declaration) and one that zeroes its variables declared without a value.
// `func init` is renamed in place, so Go no longer runs it at start-up:
// StrataReset, in a generated file of the package, runs it before each
// run, as the interpreter does (a block's init output is then each run's).
//
// The order follows the Go specification: the earliest declaration whose
// variables' dependencies are set goes next, where a dependency is a
// variable named in the values or in a function they call, transitively.
// Names are resolved syntactically (a local that shadows a package name is
// told apart), so the names that only types could settle (a selector that
// may be any method of that name, a composite literal's key) are counted
// once and left out once: when both orders agree, that is Go's; when they
// differ, or the order is unknowable (a cycle Go would have refused), the
// worker instead restarts after each run of the block, which is fresh by
// construction.

// resetName is the function the generated file declares.
const resetName = "StrataReset"

// packageReset is a block package rewritten for resets.
type packageReset struct {
	files     map[string]string // file name -> its source, rewritten
	generated string            // the generated file's source ("": not needed)
	fresh     bool              // no order: restart the worker after each run instead
}

// varDecl is one package-level var spec.
type varDecl struct {
	file  string
	spec  *ast.ValueSpec
	names []string
	deps  map[string]bool // package variables its values need
}

// pkgDecls are a package's declarations the reset is made of.
type pkgDecls struct {
	files    []*ast.File                // in name order
	pkgVars  map[string]bool            // package variables, by name
	funcs    map[string][]*ast.FuncDecl // functions and methods, by name
	topLevel map[any]bool               // declarations at package level, for ast.Object.Decl
	decls    []*varDecl                 // var specs with values, in declaration order
	zeroes   map[string][]string        // file -> variables declared without values
	inits    []initFunc                 // init functions, in Go's order
}

// initFunc is where an init function's name is in its file.
type initFunc struct {
	file string
	off  int
}

func rewriteForReset(pkg string, files map[string]string) packageReset {
	out := packageReset{files: map[string]string{}}
	for f, src := range files {
		out.files[f] = src
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names) // go build's order, and so Go's declaration order
	fset := token.NewFileSet()
	p, ok := collectDecls(fset, names, files)
	if !ok {
		return out // the compiler reports it
	}
	if len(p.decls) == 0 && len(p.inits) == 0 && len(p.zeroes) == 0 {
		return out
	}
	order := p.initOrder()
	zeroes := p.zeroes
	if procstate.Registers(p.files) != "" {
		// Setting its variables again (or running init) would register
		// a name twice in the process (expvar.NewInt("hits") panicked
		// on every run, the first too): a fresh process each run instead.
		order = nil
	}
	if order == nil {
		// See above: the worker restarts after each run instead, and Go
		// sets the variables as the process starts. The init functions
		// still run with the run, so what they print is its output.
		out.fresh, zeroes = true, nil
		if len(p.inits) == 0 {
			return out
		}
	}

	// The appended functions, per file, and the renamed init functions.
	appended := map[string]*strings.Builder{}
	add := func(file, s string) {
		b := appended[file]
		if b == nil {
			b = &strings.Builder{}
			b.WriteString("\n\n// Appended by strata (kernel/build/package_reset.go): the package's state, set again before each run.\n")
			appended[file] = b
		}
		b.WriteString(s)
	}
	var calls []string
	for i, name := range names {
		if vs := zeroes[name]; len(vs) > 0 {
			fn := fmt.Sprintf("strata_reset_zero_%d", i)
			var body []string
			for _, v := range vs {
				body = append(body, "strata_reset_zero(&"+v+")")
			}
			add(name, fmt.Sprintf("func %s() { %s }\n", fn, strings.Join(body, "; ")))
			calls = append(calls, fn+"()")
		}
	}
	for i, d := range order {
		src := files[d.file]
		from := fset.Position(d.spec.Values[0].Pos())
		to := fset.Position(d.spec.Values[len(d.spec.Values)-1].End()).Offset
		fn := fmt.Sprintf("strata_reset_var_%d", i)
		add(d.file, fmt.Sprintf("func %s() {\n\t%s = /*line %s:%d:%d*/%s\n}\n", fn, strings.Join(d.names, ", "), d.file, from.Line, from.Column, src[from.Offset:to]))
		calls = append(calls, fn+"()")
	}
	for i := range p.inits {
		calls = append(calls, fmt.Sprintf("strata_init_%d()", i))
	}
	// Renamed in place (same line). Last first: within a file the offsets
	// ascend in Go's order, so each rename leaves the earlier ones valid.
	for i := len(p.inits) - 1; i >= 0; i-- {
		in := p.inits[i]
		src := out.files[in.file]
		out.files[in.file] = src[:in.off] + fmt.Sprintf("strata_init_%d", i) + src[in.off+len("init"):]
	}
	for name, b := range appended {
		out.files[name] += b.String()
	}
	out.generated = fmt.Sprintf(`// Code generated by strata (kernel/build/package_reset.go). DO NOT EDIT.

package %s

// %s sets the package's variables again, in Go's initialization order,
// and runs its init functions: each run starts as a fresh process.
func %s() {
	%s
}

func strata_reset_zero[T any](p *T) {
	var zero T
	*p = zero
}
`, pkg, resetName, resetName, strings.Join(calls, "\n\t"))
	return out
}

// collectDecls parses the files (named in names, in order) and gathers
// their package-level declarations; false when one does not parse.
func collectDecls(fset *token.FileSet, names []string, files map[string]string) (*pkgDecls, bool) {
	p := &pkgDecls{pkgVars: map[string]bool{}, funcs: map[string][]*ast.FuncDecl{}, topLevel: map[any]bool{}, zeroes: map[string][]string{}}
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], 0)
		if err != nil {
			return nil, false
		}
		p.files = append(p.files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				p.topLevel[d] = true
				if d.Recv == nil && d.Name.Name == "init" {
					p.inits = append(p.inits, initFunc{name, fset.Position(d.Name.Pos()).Offset})
					continue
				}
				p.funcs[d.Name.Name] = append(p.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					p.topLevel[s] = true
				}
				if d.Tok == token.VAR {
					for _, s := range d.Specs {
						p.addVar(name, d, s.(*ast.ValueSpec))
					}
				}
			}
		}
	}
	return p, true
}

func (p *pkgDecls) addVar(file string, d *ast.GenDecl, vs *ast.ValueSpec) {
	if embedded(d, vs) {
		return // the linker sets it; nothing can set it again
	}
	vd := &varDecl{file: file, spec: vs}
	for _, id := range vs.Names {
		vd.names = append(vd.names, id.Name)
		if id.Name == "_" {
			continue
		}
		p.pkgVars[id.Name] = true
		if len(vs.Values) == 0 {
			p.zeroes[file] = append(p.zeroes[file], id.Name)
		}
	}
	if len(vs.Values) > 0 {
		p.decls = append(p.decls, vd)
	}
}

// refs collects the package variables n names, directly or through the
// functions it names. Loose, it also follows every method of a selector's
// name and counts a composite literal's key named like a variable: a
// superset of Go's references, which need types to tell (x.Name is T's
// method or U's; P{b: 1} names a field or a map key). Strict, it follows
// only what is surely a reference: a subset.
func (p *pkgDecls) refs(n ast.Node, loose bool, vars map[string]bool, seen map[*ast.FuncDecl]bool) {
	follow := func(fd *ast.FuncDecl) {
		if !seen[fd] {
			seen[fd] = true
			p.refs(fd.Body, loose, vars, seen)
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			// A field's, parameter's or method's name declares, not refers.
			p.refs(n.Type, loose, vars, seen)
			return false
		case *ast.KeyValueExpr:
			if _, ok := n.Key.(*ast.Ident); !ok || loose { // strict: a field's name, perhaps
				p.refs(n.Key, loose, vars, seen)
			}
			p.refs(n.Value, loose, vars, seen)
			return false
		case *ast.SelectorExpr:
			p.refs(n.X, loose, vars, seen)
			if loose { // a method value or call: every method of that name
				for _, fd := range p.funcs[n.Sel.Name] {
					if fd.Recv != nil {
						follow(fd)
					}
				}
			}
			return false
		case *ast.Ident:
			if n.Obj != nil && !p.topLevel[n.Obj.Decl] {
				return true // a local
			}
			if p.pkgVars[n.Name] {
				vars[n.Name] = true
			}
			for _, fd := range p.funcs[n.Name] {
				if fd.Recv == nil {
					follow(fd)
				}
			}
		}
		return true
	})
}

// initOrder is Go's order of the declarations with values, or nil when it
// cannot be told from the text. Go's order lies between the loose one and
// the strict one: when they agree, it is theirs (each step's pick is ready
// under Go's references, which the loose ones contain, and nothing
// declared earlier is, as the strict ones are contained in Go's). When
// they differ, or the loose ones make a cycle Go would have refused, the
// worker restarts after each run instead.
func (p *pkgDecls) initOrder() []*varDecl {
	set := map[string]bool{}
	for _, vs := range p.zeroes {
		for _, n := range vs {
			set[n] = true
		}
	}
	orderBy := func(loose bool) []*varDecl {
		for _, d := range p.decls {
			d.deps = map[string]bool{}
			seen := map[*ast.FuncDecl]bool{}
			for _, v := range d.spec.Values {
				p.refs(v, loose, d.deps, seen)
			}
		}
		return initOrder(p.decls, set)
	}
	order := orderBy(true)
	if order == nil {
		return nil
	}
	strict := orderBy(false)
	for i := range order {
		if strict == nil || strict[i] != order[i] {
			return nil
		}
	}
	return order
}

// embedded reports a //go:embed variable.
func embedded(d *ast.GenDecl, vs *ast.ValueSpec) bool {
	for _, g := range []*ast.CommentGroup{d.Doc, vs.Doc} {
		if g == nil {
			continue
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:embed") {
				return true
			}
		}
	}
	return false
}

// initOrder is Go's initialization order of decls, given each one's
// dependencies and the variables set before any (those without values):
// the earliest declaration whose dependencies are set goes next. Nil when
// no declaration is ready (a cycle).
func initOrder(decls []*varDecl, zero map[string]bool) []*varDecl {
	set := map[string]bool{}
	for n := range zero {
		set[n] = true
	}
	var order []*varDecl
	done := make([]bool, len(decls))
	for len(order) < len(decls) {
		next := -1
		for i, d := range decls {
			if done[i] {
				continue
			}
			ready := true
			for v := range d.deps {
				if !set[v] {
					ready = false
					break
				}
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 {
			return nil
		}
		done[next] = true
		order = append(order, decls[next])
		for _, n := range decls[next].names {
			set[n] = true
		}
	}
	return order
}
