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

func TestLoadSecrets(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": "name: shop\nsecrets:\n  pg: {env: PG_URL}\n  api: {file: /etc/strata/api}\n"})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	if len(p.Secrets) != 2 || p.Secrets["pg"].Env != "PG_URL" || p.Secrets["api"].File != "/etc/strata/api" {
		t.Errorf("secrets = %+v", p.Secrets)
	}
}

func TestLoadRefusesBadSecrets(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": lines(
		"name: shop",
		"secrets:",
		"  both: {env: A, file: /x}",
		"  none: {}",
		"  inside: {file: conf/pg.txt}",
		"  bad-name: {env: A}",
		"  badenv: {env: \"A B\"}",
		"  value: {password: hunter22}",
	)})
	_, probs := loadProject(t, dir)
	assertProblems(t, probs, []want{
		{"strata.yaml", 3, "secrets.both", `secret "both" has both env and file: want one`},
		{"strata.yaml", 4, "secrets.none", `secret "none" says neither env nor file`},
		{"strata.yaml", 5, "secrets.inside.file", "file conf/pg.txt is inside the project folder"},
		{"strata.yaml", 6, "secrets", `secret name "bad-name"`},
		{"strata.yaml", 7, "secrets.badenv.env", `environment variable "A B"`},
		{"strata.yaml", 8, "secrets.value.password", `unknown field "password"`},
		{"strata.yaml", 8, "secrets.value", `secret "value" says neither env nor file`},
	})
}
