package interp

import (
	"go/ast"
	"go/token"
	"go/types"
)

// embeddedForeignIfaces reports each place a value (not a pointer) of a
// struct the block declares, which embeds an interface of another package
// (sort.Interface, io.Reader), becomes an interface value. yaegi v0.16
// builds such a value with reflect.StructOf, which cannot promote the
// embedded interface's methods: sort.Sort(desc{s}) failed at run time,
// after the output before it and with no line ("reflect: StructOf does not
// support methods of embedded interfaces"), and handed to the block's own
// function it panicked with "method not found: Len" (corpus
// adv_sort_embed_iface). A pointer to it, or an embedded interface the
// block declares, runs right, and is left to the interpreter.
func (a *analysis) embeddedForeignIfaces(at func(token.Pos, string, ...any)) {
	if a.pkg == nil {
		return
	}
	a.ifaceConversions(a.file, true, func(e ast.Expr, dst types.Type, _ bool, _ *types.Func) {
		n, ok := a.info.TypeOf(e).(*types.Named)
		if !ok || n.Obj().Pkg() != a.pkg {
			return
		}
		if emb := foreignEmbeddedIface(n, a.pkg); emb != nil {
			at(e.Pos(), "a value of %s, which embeds the interface %s, made an interface value (%s): the kernel's interpreter (yaegi) builds it without the methods it gets from %s; a pointer (&%s{…}) runs interpreted", n.Obj().Name(), types.TypeString(emb.Type(), a.qualifier()), types.TypeString(dst, a.qualifier()), types.TypeString(emb.Type(), a.qualifier()), n.Obj().Name())
		}
	})
}

// foreignEmbeddedIface returns n's embedded field whose type is an
// interface with methods declared outside pkg, or nil.
func foreignEmbeddedIface(n *types.Named, pkg *types.Package) *types.Var {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		fn, ok := f.Type().(*types.Named)
		if !ok || fn.Obj().Pkg() == nil || fn.Obj().Pkg() == pkg {
			continue
		}
		if it, ok := fn.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			return f
		}
	}
	return nil
}
