package project

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeProject creates a project folder holding files (slash-separated paths
// relative to the folder) and returns its path. A strata.yaml is added when
// files has none, so most tests only spell out what they exercise.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files[ProjectFile]; !ok {
		files[ProjectFile] = "name: test\n"
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lines joins YAML lines so that a test can name line numbers by counting:
// the first argument is line 1.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// with returns files plus more, for cases that share a base.
func with(files map[string]string, more map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, files)
	maps.Copy(out, more)
	return out
}

// sqlBlocks returns one valid SQL block file per id.
func sqlBlocks(ids ...string) map[string]string {
	out := map[string]string{}
	for _, id := range ids {
		out["blocks/"+id+".sql"] = "select 1 as x\n"
	}
	return out
}

// goBlock returns a Go block package with one entry taking n tables. The
// entry function is on line 5.
func goBlock(pkg, entry string, n int) string {
	params := "ctx *sdk.Context"
	for i := range n {
		params += fmt.Sprintf(", t%d *sdk.Table", i)
	}
	body := "(*sdk.Table, error) { return sdk.NewTable(sdk.Int64(\"x\")), nil }"
	if entry == EntryExport {
		body = "error { return nil }"
	}
	return fmt.Sprintf("package %s\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc %s(%s) %s\n", pkg, entry, params, body)
}

// loadProject loads dir and returns the project and its problems, failing
// the test on any error that is not a Problems list.
func loadProject(t *testing.T, dir string) (*Project, Problems) {
	t.Helper()
	p, err := Load(dir)
	if err == nil {
		return p, nil
	}
	var probs Problems
	if !errors.As(err, &probs) {
		t.Fatalf("Load: %v", err)
	}
	if p == nil {
		t.Fatalf("Load returned problems without a project: %v", err)
	}
	return p, probs
}

// want describes an expected problem; msg is a substring of the message.
type want struct {
	file  string
	line  int
	field string
	msg   string
}

// assertProblems checks that got holds exactly the wanted problems, in any
// order, so a case fails both on a missing problem and on a spurious one.
func assertProblems(t *testing.T, got Problems, wants []want) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, p := range got {
			if !used[i] && p.File == w.file && p.Line == w.line && p.Field == w.field && strings.Contains(p.Message, w.msg) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("missing problem %s:%d: %s: %q", w.file, w.line, w.field, w.msg)
		}
	}
	for i, p := range got {
		if !used[i] {
			t.Errorf("unexpected problem %s", p)
		}
	}
}
