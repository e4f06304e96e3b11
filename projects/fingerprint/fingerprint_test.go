package fingerprint

import (
	"slices"
	"testing"
)

const varBlock = `package clv

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	_ = ctx.Var("margin", "0.3")
	return in, nil
}
`

func TestBlockCountsTheVariablesItReads(t *testing.T) {
	t.Parallel()
	goFile := []File{{Path: "blocks/clv/clv.go", Src: []byte(varBlock)}}
	sqlFile := []File{{Path: "blocks/agg.sql", Src: []byte("SELECT 1")}}
	before := map[string]string{"margin": "0.32", "other": "a"}
	after := map[string]string{"margin": "0.5", "other": "a"}
	if Block(goFile, before) == Block(goFile, after) {
		t.Error("changing margin kept the fingerprint of a block that reads it")
	}
	if Block(goFile, before) != Block(goFile, map[string]string{"margin": "0.32", "other": "b"}) {
		t.Error("changing a variable the block never reads changed its fingerprint")
	}
	if Block(goFile, before) == Block(goFile, map[string]string{"other": "a"}) {
		t.Error("unsetting margin kept the fingerprint")
	}
	if Block(sqlFile, before) != Block(sqlFile, after) || Block(sqlFile, after) != Code("blocks/agg.sql", []byte("SELECT 1")) {
		t.Error("a SQL block reads no variables: its fingerprint is its code hash")
	}
}

func TestReadVars(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"a": "1", "b": "2", "margin": "3"}
	cases := []struct {
		body string
		want []string
	}{
		{`_ = ctx.Var("margin", "")`, []string{"margin"}},
		{`_ = ctx.Var("a", "") + ctx.Var(` + "`b`" + `, "")`, []string{"a", "b"}},
		{`n := "a"; _ = ctx.Var(n, "")`, []string{"a", "b", "margin"}},
		{`_ = len(ctx.Vars)`, []string{"a", "b", "margin"}},
		{`f := ctx.Var; _ = f("a", "")`, []string{"a", "b", "margin"}},
		{`_ = 1`, []string{}},
	}
	for _, c := range cases {
		src := "package b\nfunc f(ctx *C) {\n" + c.body + "\n}\n"
		got := ReadVars([]File{{Path: "b.go", Src: []byte(src)}}, vars)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: read %v, want %v", c.body, got, c.want)
		}
	}
	if got := ReadVars([]File{{Path: "b.go", Src: []byte("package b\nfunc (")}}, vars); len(got) != 3 {
		t.Errorf("an unparsable file may read anything: got %v", got)
	}
}

func TestBlockOfSeveralFiles(t *testing.T) {
	t.Parallel()
	a := File{Path: "blocks/b/b.go", Src: []byte("package b\nfunc Load() int { return helper() }\n")}
	h1 := File{Path: "blocks/b/helper.go", Src: []byte("package b\nfunc helper() int { return 1 }\n")}
	h2 := File{Path: "blocks/b/helper.go", Src: []byte("package b\nfunc helper() int { return 2 }\n")}
	if Block([]File{a, h1}, nil) == Block([]File{a, h2}, nil) {
		t.Error("a change in a second file of the block kept its fingerprint")
	}
	if Block([]File{a, h1}, nil) != Block([]File{h1, a}, nil) {
		t.Error("file order changed the fingerprint")
	}
}
