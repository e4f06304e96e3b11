package interp

import (
	"strings"
	"testing"
)

func TestNeedsCompiled(t *testing.T) {
	e := NewExecutor()
	const head = "package b\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\n"
	cases := []struct {
		name, src, want string
		line            int
	}{
		{"range over func", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tfor range func(yield func() bool) {} {\n\t}\n\treturn nil, nil\n}\n", "needs compiled: range over a function", 6},
		{"runs interpreted", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tfor i := range 3 {\n\t\t_ = min(i, 2)\n\t}\n\treturn nil, nil\n}\n", "", 0},
		// The destination has a call, so it cannot be moved into the body.
		{"range assigning through a call", head + "func key() string { return \"k\" }\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tm := map[string]int{}\n\tfor m[key()] = range []int{1} {\n\t}\n\treturn nil, nil\n}\n", "needs compiled: a range that assigns to m[key()]", 9},
		{"range assigning names runs interpreted", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tvar i int\n\tfor i = range 3 {\n\t}\n\t_ = i\n\treturn nil, nil\n}\n", "", 0},
		// An interface value into an any with other values: split only
		// when every destination is a name.
		{"any assigned with an element", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tm := map[string]any{}\n\tvar z any\n\tx := 0\n\tx, m[\"k\"] = 4, z\n\t_ = x\n\treturn nil, nil\n}\n", "needs compiled: an interface value assigned with other values to an empty interface", 9},
		{"any assigned to names runs interpreted", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tvar z, v any\n\tx := 0\n\tx, v = 4, z\n\t_, _ = x, v\n\treturn nil, nil\n}\n", "", 0},
		// Copied as text by the defer rewrite: not parenthesized, so routed.
		{"operator into any in a deferred literal", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tdefer func(n int) {\n\t\tvar v any\n\t\tv = -n\n\t\t_ = v\n\t}(3)\n\treturn nil, nil\n}\n", "needs compiled: -n inside a deferred function literal", 8},
		{"nil with other values in a deferred literal", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tdefer func(n int) {\n\t\tvar e error\n\t\tx := 0\n\t\tx, e = n, nil\n\t\t_, _ = x, e\n\t}(3)\n\treturn nil, nil\n}\n", "needs compiled: nil assigned with other values inside a deferred function literal", 9},
		// A constant comparison beyond int64 in text the defer rewrite copies.
		{"big constant comparison in a deferred call", head + "import \"fmt\"\n\nconst m = -9223372036854775808\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tdefer fmt.Println(-m > 0)\n\treturn nil, nil\n}\n", "needs compiled: -m > 0, a comparison of untyped constants beyond int64", 10},
		{"big constant comparison runs interpreted", head + "const m = -9223372036854775808\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\t_ = -m > 0\n\treturn nil, nil\n}\n", "", 0},
		// A package variable without a value, after an initializer that
		// calls, is moved to the imports' line only from a line of its own.
		{"zero package variable over several lines", head + "var n = len(make([]int, 2))\n\nvar state struct {\n\tn int\n}\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\treturn nil, nil\n}\n", "needs compiled: package variable state, declared without a value after an initializer that calls", 7},
		{"zero package variable on one line runs interpreted", head + "var n = len(make([]int, 2))\n\nvar state struct{ n int }\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\treturn nil, nil\n}\n", "", 0},
		// println is rewritten to write to stderr, except where the defer
		// rewrite copies the call as written.
		{"println in a deferred call", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tdefer println(\"bye\", 1)\n\treturn nil, nil\n}\n", "needs compiled: println inside a deferred call", 6},
		{"println runs interpreted", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tprintln(\"hi\", 1)\n\treturn nil, nil\n}\n", "", 0},
		// A comma-ok's variable captured in a loop gets one per iteration,
		// except where an else-if reads it.
		{"comma-ok variable captured in an else-if", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tm := map[int]int{}\n\tfor i := 0; i < 2; i++ {\n\t\tif v, ok := m[i]; ok {\n\t\t} else if i > 0 {\n\t\t\t_ = func() int { return v }\n\t\t}\n\t}\n\treturn nil, nil\n}\n", "needs compiled: a variable of a comma-ok define, a type switch or a select case", 8},
		{"comma-ok variable captured runs interpreted", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tm := map[int]int{}\n\tfor i := 0; i < 2; i++ {\n\t\tv, ok := m[i]\n\t\t_ = func() (int, bool) { return v, ok }\n\t}\n\treturn nil, nil\n}\n", "", 0},
		{"typo is not needs compiled", head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n\treturn nil, nill\n}\n", "", 0},
	}
	for _, c := range cases {
		d := e.NeedsCompiled("b.go", c.src, nil)
		switch {
		case c.want == "" && len(d) > 0:
			t.Errorf("%s: got %v, want none", c.name, d)
		case c.want != "" && (len(d) == 0 || !strings.HasPrefix(d[0].Message, c.want) || d[0].Line != c.line):
			t.Errorf("%s: got %v, want %q at line %d", c.name, d, c.want, c.line)
		}
	}
}
