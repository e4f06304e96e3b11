package project

import (
	"path/filepath"
	"testing"
)

const sdkImport = "import \"github.com/stratahq/strata/blocks/sdk\"\n"

// TestBlockSourceProblems covers finding block files and checking Go entry
// functions against the block contract.
func TestBlockSourceProblems(t *testing.T) {
	t.Parallel()
	oneBlock := lines("blocks:", "  - id: a")
	twoBlocks := lines("blocks:", "  - id: a", "  - id: b", "    upstream: [a]")
	cases := []struct {
		name     string
		pipeline string
		files    map[string]string
		want     []want
	}{
		{
			name:     "no file for the block",
			pipeline: oneBlock,
			want: []want{{pf, 2, "blocks[0].file",
				`no file for block "a": create blocks/a/a.go (Go) or blocks/a.sql (SQL), or set file`}},
		},
		{
			name:     "block folder holds another Go file",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a/main.go": goBlock("a", EntryLoad, 0)},
			want:     []want{{pf, 2, "blocks[0].file", "(blocks/a/ holds main.go; set file: blocks/a/main.go)"}},
		},
		{
			name:     "kind sql without its file",
			pipeline: lines("blocks:", "  - id: a", "    kind: sql"),
			files:    map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 0)},
			want:     []want{{pf, 2, "blocks[0].file", "missing block file blocks/a.sql: create it or set file"}},
		},
		{
			name:     "explicit file missing suggests the default",
			pipeline: lines("blocks:", "  - id: a", "    file: blocks/a/aa.go"),
			files:    map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 0)},
			want:     []want{{pf, 3, "blocks[0].file", `block file blocks/a/aa.go does not exist (did you mean "blocks/a/a.go"?)`}},
		},
		{
			name:     "file climbing out of the project",
			pipeline: lines("blocks:", "  - id: a", "    file: ../outside.sql"),
			want:     []want{{pf, 3, "blocks[0].file", `path "../outside.sql" climbs out with ".."`}},
		},
		{
			name:     "absolute file",
			pipeline: lines("blocks:", "  - id: a", "    file: /etc/hosts.sql"),
			want:     []want{{pf, 3, "blocks[0].file", `path "/etc/hosts.sql" is absolute`}},
		},
		{
			name:     "unknown extension",
			pipeline: lines("blocks:", "  - id: a", "    file: blocks/a.py"),
			files:    map[string]string{"blocks/a.py": "print(1)\n"},
			want:     []want{{pf, 3, "blocks[0].file", "file blocks/a.py is neither a .go nor a .sql file"}},
		},
		{
			name:     "kind contradicts the file",
			pipeline: lines("blocks:", "  - id: a", "    file: blocks/a.sql", "    kind: go"),
			files:    sqlBlocks("a"),
			want:     []want{{pf, 4, "blocks[0].kind", "kind go does not match file blocks/a.sql"}},
		},
		{
			name:     "Go syntax error at its line and column",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a/a.go": "package a\n\nfunc Load( {\n"},
			want:     []want{{"blocks/a/a.go", 3, "", "syntax error: expected ')', found '{'"}},
		},
		{
			name:     "no entry function, with a typo hint",
			pipeline: oneBlock,
			files: map[string]string{"blocks/a/a.go": "package a\n\n" + sdkImport +
				"\nfunc Tranform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) { return in, nil }\n"},
			want: []want{{"blocks/a/a.go", 1, "", "no entry function: define Load, Transform or Export, such as func Load(ctx *sdk.Context) (*sdk.Table, error) (func Tranform looks like Transform)"}},
		},
		{
			name:     "two entry functions",
			pipeline: oneBlock,
			files: map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 0) +
				"func Transform(ctx *sdk.Context, t *sdk.Table) (*sdk.Table, error) { return t, nil }\n"},
			want: []want{{"blocks/a/a.go", 6, "", "2 entry functions (Load at blocks/a/a.go:5, Transform at blocks/a/a.go:6)"}},
		},
		{
			name:     "two Go blocks in one folder",
			pipeline: lines("blocks:", "  - id: a", "  - id: b", "    file: blocks/a/b.go"),
			files:    map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 0), "blocks/a/b.go": goBlock("a", EntryLoad, 0)},
			want: []want{
				{"blocks/a/b.go", 5, "", "2 entry functions (Load at blocks/a/a.go:5, Load at blocks/a/b.go:5)"},
			},
		},
		{
			name:     "Transform takes more tables than upstreams",
			pipeline: twoBlocks,
			files:    with(sqlBlocks("a"), map[string]string{"blocks/b/b.go": goBlock("b", EntryTransform, 2)}),
			want: []want{{pf, 4, "blocks[1].upstream",
				"Transform takes 2 tables but the block has 1 upstream (Transform is at blocks/b/b.go:5)"}},
		},
		{
			name:     "Transform without upstream list",
			pipeline: lines("blocks:", "  - id: b"),
			files:    map[string]string{"blocks/b/b.go": goBlock("b", EntryTransform, 1)},
			want:     []want{{pf, 2, "blocks[0].upstream", "Transform takes 1 table but the block has 0 upstreams"}},
		},
		{
			name:     "Export takes fewer tables than upstreams",
			pipeline: lines("blocks:", "  - id: a", "  - id: c", "  - id: b", "    upstream: [a, c]"),
			files:    with(sqlBlocks("a", "c"), map[string]string{"blocks/b/b.go": goBlock("b", EntryExport, 1)}),
			want:     []want{{pf, 5, "blocks[2].upstream", "Export takes 1 table but the block has 2 upstreams"}},
		},
		{
			name:     "Load with an upstream",
			pipeline: twoBlocks,
			files:    with(sqlBlocks("a"), map[string]string{"blocks/b/b.go": goBlock("b", EntryLoad, 0)}),
			want:     []want{{pf, 4, "blocks[1].upstream", "Load takes no tables but the block has 1 upstream: rename it Transform"}},
		},
		{
			name:     "Load taking a table",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 1)},
			want:     []want{{"blocks/a/a.go", 5, "", "Load takes no tables: a block that reads upstream outputs is a Transform"}},
		},
		{
			name:     "entry signature against the contract",
			pipeline: twoBlocks,
			files: with(sqlBlocks("a"), map[string]string{"blocks/b/b.go": lines(
				"package b",
				"",
				"import (",
				`	"context"`,
				"",
				`	"github.com/stratahq/strata/blocks/sdk"`,
				")",
				"",
				"func Transform(ctx context.Context, n int) (int, error) { return 0, nil }",
				"",
				"var _ = sdk.NewTable",
			)}),
			want: []want{
				{"blocks/b/b.go", 9, "", "Transform must take ctx *sdk.Context as its first parameter, got context.Context"},
				{"blocks/b/b.go", 9, "", "parameter 2 of Transform has type int, want *sdk.Table (one per upstream block, in upstream order)"},
				{"blocks/b/b.go", 9, "", "Transform must return (*sdk.Table, error), got (int, error)"},
			},
		},
		{
			name:     "entry without the SDK import",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a/a.go": "package a\n\nfunc Load(ctx int) error { return nil }\n"},
			want: []want{{"blocks/a/a.go", 3, "",
				`Load takes *sdk.Context and *sdk.Table, but the file does not import "github.com/stratahq/strata/blocks/sdk"`}},
		},
		{
			name:     "Check on an Export block",
			pipeline: twoBlocks,
			files: with(sqlBlocks("a"), map[string]string{"blocks/b/b.go": goBlock("b", EntryExport, 1) +
				"func Check(ctx *sdk.Context, out *sdk.Table) error { return nil }\n"}),
			want: []want{{"blocks/b/b.go", 6, "", "Check inspects the block's output, but an Export block returns none"}},
		},
		{
			name:     "Check signature",
			pipeline: oneBlock,
			files: map[string]string{"blocks/a/a.go": goBlock("a", EntryLoad, 0) +
				"func Check(ctx *sdk.Context) error { return nil }\n"},
			want: []want{{"blocks/a/a.go", 6, "", "Check must take (ctx *sdk.Context, out *sdk.Table), got 1 parameter"}},
		},
		{
			name:     "package main",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a/a.go": goBlock("main", EntryLoad, 0)},
			want:     []want{{"blocks/a/a.go", 1, "", `"package main" cannot be imported`}},
		},
		{
			name:     "empty SQL file",
			pipeline: oneBlock,
			files:    map[string]string{"blocks/a.sql": "-- nothing yet\n/* later */\n\n"},
			want:     []want{{"blocks/a.sql", 1, "", "empty SQL file"}},
		},
		{
			name:     "aliased and dot imports of the SDK",
			pipeline: twoBlocks,
			files: map[string]string{
				"blocks/a/a.go": "package a\n\nimport s \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *s.Context) (*s.Table, error) { return nil, nil }\n",
				"blocks/b/b.go": "package b\n\nimport . \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Transform(ctx *Context, in *Table) (*Table, error) { return in, nil }\n",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := writeProject(t, with(c.files, map[string]string{pf: c.pipeline}))
			_, probs := loadProject(t, dir)
			assertProblems(t, probs, c.want)
		})
	}
}

// A Go block is a package: a helper file and a Check next to the block's
// file are part of it, and a _test.go file (with its own Load) is ignored.
func TestGoBlockOfSeveralFiles(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"pipelines/p.yaml":       lines("blocks:", "  - id: clv"),
		"blocks/clv/clv.go":      goBlock("clv", EntryLoad, 0),
		"blocks/clv/check.go":    "package clv\n\n" + sdkImport + "\nfunc Check(ctx *sdk.Context, out *sdk.Table) error { return nil }\n",
		"blocks/clv/clv_test.go": goBlock("clv", EntryLoad, 0),
	})
	_, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
}

// TestBlockSources checks what loading learns about valid blocks.
func TestBlockSources(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		pf: lines("blocks:",
			"  - id: raw_orders",
			"  - id: clv",
			"    upstream: [raw_orders]",
			"  - id: dual",
			"  - id: custom",
			"    file: sql/custom.sql",
			"  - id: typed",
			"    kind: sql",
		),
		"blocks/raw_orders.sql":  "select 1 as id\n",
		"blocks/clv/clv.go":      goBlock("clv", EntryTransform, 1) + "\nfunc Check(ctx *sdk.Context, out *sdk.Table) error { return nil }\n",
		"blocks/clv/clv_test.go": "package clv\n\nfunc Load() {}\n",
		"blocks/dual/dual.go":    goBlock("dual", EntryLoad, 0),
		"blocks/dual.sql":        "select 1\n",
		"sql/custom.sql":         "select 2\n",
		"blocks/typed.sql":       "select 3\n",
		"blocks/typed/typed.go":  goBlock("typed", EntryLoad, 0),
	})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	pl := p.Pipelines["p"]
	cases := []struct {
		id, file, kind, entry string
		check                 bool
		line                  int
	}{
		{"raw_orders", "blocks/raw_orders.sql", KindSQL, "", false, 2},
		{"clv", "blocks/clv/clv.go", KindGo, EntryTransform, true, 3},
		{"dual", "blocks/dual/dual.go", KindGo, EntryLoad, false, 5},
		{"custom", "sql/custom.sql", KindSQL, "", false, 6},
		{"typed", "blocks/typed.sql", KindSQL, "", false, 8},
	}
	for _, c := range cases {
		b := pl.Block(c.id)
		if b == nil {
			t.Fatalf("block %s not loaded", c.id)
		}
		if b.File != c.file || b.Kind != c.kind || b.Entry != c.entry || b.HasCheck != c.check || b.Line != c.line {
			t.Errorf("block %s = file %s kind %s entry %q check %v line %d, want %s %s %q %v %d",
				c.id, b.File, b.Kind, b.Entry, b.HasCheck, b.Line, c.file, c.kind, c.entry, c.check, c.line)
		}
		if want := filepath.Join(p.Dir, filepath.FromSlash(c.file)); b.Path != want {
			t.Errorf("block %s path = %s, want %s", c.id, b.Path, want)
		}
	}
}
