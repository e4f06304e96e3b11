package interp

import (
	"strings"
	"testing"
)

// Values of the block's types with a String or Error method inside what
// fmt prints are routed to compiled (yaegi prints their fields); the same
// values printed directly, and containers of other types, run interpreted.
func TestNestedFmtValuesRouting(t *testing.T) {
	e := NewExecutor()
	const head = "package b\n\nimport (\n\t\"fmt\"\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\ntype L int\n\nfunc (l L) String() string { return \"l\" }\n\ntype Row struct{ N int }\n\n"
	load := func(body string) string {
		return head + "func Load(ctx *sdk.Context) (*sdk.Table, error) {\n" + body + "\treturn nil, nil\n}\n"
	}
	cases := []struct{ name, src, want string }{
		{"slice", load("\tfmt.Println([]L{1})\n"), "needs compiled: []L{…} printed by fmt.Println holds a L"},
		{"map value", load("\tm := map[string]L{}\n\tfmt.Printf(\"%v\", m)\n"), "needs compiled: m printed by fmt.Printf holds a L"},
		{"struct field", load("\tfmt.Sprint(struct{ X L }{1})\n"), "needs compiled: struct{X L}{…} printed by fmt.Sprint holds a L"},
		{"any slice", load("\tfmt.Println([]any{1})\n"), "needs compiled: []any{…} printed by fmt.Println holds an interface"},
		{"direct", load("\tfmt.Println(L(1), Row{1})\n"), ""},
		{"ints and rows", load("\tfmt.Println([]int{1}, []Row{{1}}, map[string]int{})\n"), ""},
		{"stringer interfaces", load("\tfmt.Println([]fmt.Stringer{L(1)})\n"), ""},
	}
	for _, c := range cases {
		d := e.NeedsCompiled("b.go", c.src, nil)
		switch {
		case c.want == "" && len(d) > 0:
			t.Errorf("%s: got %v, want none", c.name, d)
		case c.want != "" && (len(d) == 0 || !strings.HasPrefix(d[0].Message, c.want)):
			t.Errorf("%s: got %v, want %q", c.name, d, c.want)
		}
	}
	// Without a type fmt calls methods of, nothing is routed.
	plain := "package b\n\nimport (\n\t\"fmt\"\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tfmt.Println([]any{1})\n\treturn nil, nil\n}\n"
	if d := e.NeedsCompiled("b.go", plain, nil); len(d) > 0 {
		t.Errorf("[]any in a block without Stringers: got %v", d)
	}
}
