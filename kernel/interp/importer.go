package interp

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/generic"
)

// symbolImporter builds go/types packages from the same symbol tables yaegi
// runs blocks with, so the type checker accepts exactly what the interpreter
// can call: no GOROOT sources, no export data, no toolchain at run time.
// Generic packages that yaegi interprets from source (cmp, maps, slices) are
// type-checked from that same source.
type symbolImporter struct {
	mu      sync.Mutex
	symbols yaegi.Exports
	byPath  map[string]string // import path -> symbols key ("fmt" -> "fmt/fmt")
	pkgs    map[string]*types.Package
	named   map[reflect.Type]*types.Named
	generic map[string]string // import path -> source
}

func newSymbolImporter(symbols yaegi.Exports) *symbolImporter {
	im := &symbolImporter{
		symbols: symbols,
		byPath:  map[string]string{},
		pkgs:    map[string]*types.Package{},
		named:   map[reflect.Type]*types.Named{},
		generic: map[string]string{},
	}
	for k := range symbols {
		im.byPath[path.Dir(k)] = k
	}
	for _, src := range generic.Sources {
		if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly); err == nil {
			im.generic[f.Name.Name] = src
		}
	}
	for p, src := range overlays {
		im.generic[p] = src
		delete(im.byPath, p) // the overlay is the whole package
	}
	return im
}

// has reports whether path can be imported by a block.
func (im *symbolImporter) has(p string) bool {
	_, ok := im.byPath[p]
	_, gen := im.generic[p]
	return ok || gen
}

// fromSource reports whether p is type-checked and run from source.
func (im *symbolImporter) fromSource(p string) bool { _, ok := im.generic[p]; return ok }

func (im *symbolImporter) Import(p string) (*types.Package, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.importLocked(p)
}

func (im *symbolImporter) importLocked(p string) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	if pkg := im.pkgs[p]; pkg != nil && pkg.Complete() {
		return pkg, nil
	}
	key, ok := im.byPath[p]
	src, gen := im.generic[p]
	if !ok && !gen {
		return nil, fmt.Errorf("package %q is not available in the kernel", p)
	}
	pkg := im.packageObject(p)
	if ok {
		names := make([]string, 0, len(im.symbols[key]))
		for n := range im.symbols[key] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if strings.HasPrefix(n, "_") || !token.IsExported(n) {
				continue
			}
			if obj := im.object(pkg, n, im.symbols[key][n]); obj != nil {
				pkg.Scope().Insert(obj)
			}
		}
	}
	if gen {
		if err := im.checkGeneric(pkg, src); err != nil {
			return nil, err
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}

func (im *symbolImporter) checkGeneric(pkg *types.Package, src string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, pkg.Path()+".go", src, 0)
	if err != nil {
		return err
	}
	conf := types.Config{Importer: lockedImporter{im}, Error: func(error) {}}
	// Errors are ignored: the source is yaegi's own copy of the standard library.
	_ = types.NewChecker(&conf, fset, pkg, nil).Files([]*ast.File{f})
	return nil
}

// lockedImporter lets the generic sources import while im.mu is held.
type lockedImporter struct{ im *symbolImporter }

func (l lockedImporter) Import(p string) (*types.Package, error) { return l.im.importLocked(p) }

var constantValueType = reflect.TypeOf((*constant.Value)(nil)).Elem()

func (im *symbolImporter) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch {
	case t.Implements(constantValueType) && t.Kind() != reflect.Interface:
		cv := v.Interface().(constant.Value)
		return types.NewConst(token.NoPos, pkg, name, untypedOf(cv), cv)
	case t.Kind() == reflect.Func:
		return types.NewFunc(token.NoPos, pkg, name, im.signature(t))
	case t.Kind() == reflect.Pointer && v.IsNil():
		if nt, ok := im.typeOf(t.Elem()).(*types.Named); ok {
			if nt.Obj().Name() == name && nt.Obj().Pkg() == pkg {
				return nt.Obj()
			}
			// An alias (type EndpointResolverOptions = endpoints.Options):
			// its own name in this package, or it would take the name of
			// the type it stands for, and hide a type of this package of
			// that name.
			tn := types.NewTypeName(token.NoPos, pkg, name, nil)
			types.NewAlias(tn, nt)
			return tn
		}
		return types.NewTypeName(token.NoPos, pkg, name, im.typeOf(t.Elem()))
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
	default:
		if cv := constantOf(v); cv != nil {
			return types.NewConst(token.NoPos, pkg, name, im.typeOf(t), cv)
		}
		return types.NewVar(token.NoPos, pkg, name, im.typeOf(t))
	}
}

func untypedOf(cv constant.Value) types.Type {
	switch cv.Kind() {
	case constant.Int:
		return types.Typ[types.UntypedInt]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.Invalid]
}

func constantOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	}
	return nil
}

var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// typeOf converts a reflect type. Named types become *types.Named in their
// package, shared by identity so assignability works across packages.
func (im *symbolImporter) typeOf(t reflect.Type) types.Type {
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() == "" {
		if k, ok := basicKinds[t.Kind()]; ok {
			return types.Typ[k]
		}
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return im.namedOf(t)
	}
	return im.structural(t)
}

func (im *symbolImporter) structural(t reflect.Type) types.Type {
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(im.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(im.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(im.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(im.typeOf(t.Key()), im.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typeOf(t.Elem()))
	case reflect.Func:
		return im.signature(t)
	case reflect.Struct:
		fields := make([]*types.Var, 0, t.NumField())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fields = append(fields, types.NewField(token.NoPos, im.pkgOf(f.PkgPath, t), f.Name, im.typeOf(f.Type), f.Anonymous))
		}
		return types.NewStruct(fields, nil)
	case reflect.Interface:
		methods := make([]*types.Func, 0, t.NumMethod())
		for i := 0; i < t.NumMethod(); i++ {
			m := t.Method(i)
			methods = append(methods, types.NewFunc(token.NoPos, im.pkgOf(m.PkgPath, t), m.Name, im.signature(m.Type)))
		}
		return types.NewInterfaceType(methods, nil).Complete()
	}
	if k, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[k]
	}
	return types.Typ[types.Invalid]
}

func (im *symbolImporter) pkgOf(pkgPath string, owner reflect.Type) *types.Package {
	if pkgPath == "" {
		pkgPath = owner.PkgPath()
	}
	if pkgPath == "" {
		return nil
	}
	return im.packageObject(pkgPath)
}

func (im *symbolImporter) packageObject(p string) *types.Package {
	if pkg := im.pkgs[p]; pkg != nil {
		return pkg
	}
	name := path.Base(p)
	if key, ok := im.byPath[p]; ok {
		name = path.Base(key)
	}
	pkg := types.NewPackage(p, name)
	im.pkgs[p] = pkg
	return pkg
}

func (im *symbolImporter) namedOf(t reflect.Type) types.Type {
	if n := im.named[t]; n != nil {
		return n
	}
	pkg := im.packageObject(t.PkgPath())
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // an instantiated generic type: keep its base name
	}
	obj := types.NewTypeName(token.NoPos, pkg, name, nil)
	n := types.NewNamed(obj, nil, nil)
	im.named[t] = n
	n.SetUnderlying(im.structural(t).Underlying())
	if t.Kind() == reflect.Interface {
		return n
	}
	valueMethods := map[string]bool{}
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		valueMethods[m.Name] = true
		recv := types.NewVar(token.NoPos, pkg, "", n)
		n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, im.methodSignature(recv, m.Type)))
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if valueMethods[m.Name] {
			continue
		}
		recv := types.NewVar(token.NoPos, pkg, "", types.NewPointer(n))
		n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, im.methodSignature(recv, m.Type)))
	}
	return n
}

// methodSignature drops the receiver, which reflect lists as the first parameter.
func (im *symbolImporter) methodSignature(recv *types.Var, ft reflect.Type) *types.Signature {
	params := make([]*types.Var, 0, ft.NumIn())
	for i := 1; i < ft.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", im.typeOf(ft.In(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), im.results(ft), ft.IsVariadic())
}

func (im *symbolImporter) signature(ft reflect.Type) *types.Signature {
	params := make([]*types.Var, 0, ft.NumIn())
	for i := 0; i < ft.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", im.typeOf(ft.In(i))))
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), im.results(ft), ft.IsVariadic())
}

func (im *symbolImporter) results(ft reflect.Type) *types.Tuple {
	res := make([]*types.Var, 0, ft.NumOut())
	for i := 0; i < ft.NumOut(); i++ {
		res = append(res, types.NewParam(token.NoPos, nil, "", im.typeOf(ft.Out(i))))
	}
	return types.NewTuple(res...)
}
