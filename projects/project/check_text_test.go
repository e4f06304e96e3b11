package project

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The YAML editor's check of an unsaved text reports exactly what Load
// reports once the text is on disk: file, line, column and field.
func TestCheckTextMatchesLoad(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{
		"pipelines/p.yaml": "partitions: {interval: day}\nblocks:\n  - id: a\n",
		"blocks/a.sql":     "SELECT 1 AS x",
	})
	proj, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ file, text, want string }{
		{ProjectFile, "name: x\nretention: 0\n", "retention"},
		{ProjectFile, "name: x\nkernel:\n  allow: [os/exec, net]\n", "kernel.allow[1]"},
		{ProjectFile, "name: [x\n", "YAML syntax error"},
		{"pipelines/p.yaml", "partitions: {interval: fortnight}\nblocks:\n  - id: a\n", "partitions.interval"},
		{"pipelines/p.yaml", "partitions: {interval: day}\nblocks:\n  - id: a\n    upstream: [nope]\n", "blocks[0].upstream[0]"},
		{"pipelines/p.yaml", "partitions: {interval: day}\nblocks:\n  - id: a\n  - id: b\n", "blocks[1].file"},
		{"pipelines/p.yaml", "blocks:\n\t- id: a\n", "YAML syntax error"},
	}
	for _, c := range cases {
		got, err := CheckText(proj, c.file, []byte(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(got, func(p Problem) bool { return p.Field == c.want || strings.Contains(p.Message, c.want) }) {
			t.Errorf("%s %q: problems %v, want one at %s", c.file, c.text, got, c.want)
		}
		// The same text on disk: Load says the same of that file.
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(c.file)), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, _ := Load(dir)
		if want := loaded.Problems.ForFile(c.file); !slices.Equal(got, want) {
			t.Errorf("%s %q:\n check %v\n load  %v", c.file, c.text, got, want)
		}
	}
	if _, err := CheckText(proj, "blocks/a.sql", nil); err == nil {
		t.Error("a block file is not a YAML file of the project")
	}
}
