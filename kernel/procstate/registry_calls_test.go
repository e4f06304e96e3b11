package procstate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestRegisters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ src, want string }{
		{`package p; import "expvar"; var hits = expvar.NewInt("hits")`, "expvar.NewInt"},
		{`package p; import "net/http"; func init() { http.HandleFunc("/h", nil) }`, "http.HandleFunc"},
		{`package p; import db "database/sql"; func init() { db.Register("x", nil) }`, "db.Register"},
		{`package p; import "expvar"; func f() any { return expvar.Get("hits") }`, ""},
		{`package p; import "net/http"; func f() { m := http.NewServeMux(); m.HandleFunc("/h", nil) }`, ""},
		{`package p; import "net/http"; func f(http struct{ Handle func() }) { http.Handle() }`, ""},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "p.go", c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := Registers([]*ast.File{f}); got != c.want {
			t.Errorf("%s: %q, want %q", c.src, got, c.want)
		}
	}
}
