package project

import (
	"slices"
	"testing"
)

func TestLoadExtensions(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": "name: shop\nextensions: [ducklake, postgres, httpfs]\n"})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	if want := []string{"ducklake", "postgres", "httpfs"}; !slices.Equal(p.Extensions, want) {
		t.Errorf("extensions = %v, want %v", p.Extensions, want)
	}
}

func TestLoadRefusesBadExtensions(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": "name: shop\nextensions: [postgres, \"Bad Name\", postgres, {a: b}]\n"})
	_, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{
		{"strata.yaml", 2, "extensions[1]", `extension "Bad Name": want a lower-case DuckDB extension name`},
		{"strata.yaml", 2, "extensions[2]", `extension "postgres" is listed twice`},
		{"strata.yaml", 2, "extensions[3]", "want a name"},
	})
}
