package interp

import (
	"fmt"
	"strings"
	"testing"
)

// A nil pointer of the block's type that becomes a standard interface is
// routed to compiled (yaegi would make it a nil interface); values that
// cannot be nil there run interpreted.
func TestTypedNilRouting(t *testing.T) {
	e := NewExecutor()
	const head = "package b\n\nimport (\n\t\"errors\"\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\ntype E struct{}\n\nfunc (*E) Error() string { return \"e\" }\n\nvar _ = errors.New\n\n"
	load := func(body string) string {
		return "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n" + body + "\treturn nil, nil\n}\n"
	}
	routed := "needs compiled: p (a *E that may be nil) becomes error"
	cases := []struct{ name, src, want string }{
		{"returned", "func f() error {\n\tvar p *E\n\treturn p\n}\n" + load(""), routed},
		{"assigned", load("\tvar p *E\n\tvar err error\n\terr = p\n\t_ = err\n"), routed},
		{"argument", load("\tvar p *E\n\tfmt(p)\n") + "func fmt(err error) {}\n", routed},
		{"struct field", load("\tvar p *E\n\t_ = struct{ err error }{err: p}\n"), routed},
		{"address of a literal", load("\tvar err error = &E{}\n\t_ = err\n"), ""},
		{"variable only ever non-nil", load("\tp := &E{}\n\tvar err error = p\n\t_ = err\n"), ""},
		{"guarded by a nil check", "func f(p *E) error {\n\tif p == nil {\n\t\treturn nil\n\t}\n\treturn p\n}\n" + load(""), ""},
		{"guard then reassigned", "func f(p *E) error {\n\tif p == nil {\n\t\treturn nil\n\t}\n\tp = nil\n\treturn p\n}\n" + load(""), routed},
		// Only container/heap and sort take a receiver without a route.
		{"receiver returned as error", "func (p *E) self() error {\n\treturn p\n}\n" + load(""), routed},
		{"any keeps the type", load("\tvar p *E\n\tvar x any = p\n\t_ = x\n"), ""},
	}
	for _, c := range cases {
		d := e.NeedsCompiled("b.go", head+c.src, nil)
		switch {
		case c.want == "" && strings.Contains(fmt.Sprint(d), "may be nil"):
			// (Other routings may apply: `var x any = p` is routed for
			// printing, unsupported_types.go.)
			t.Errorf("%s: got %v, want none", c.name, d)
		case c.want != "" && (len(d) == 0 || !strings.HasPrefix(d[0].Message, c.want)):
			t.Errorf("%s: got %v, want %q", c.name, d, c.want)
		}
	}
}
