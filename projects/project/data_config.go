package project

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stratahq/strata/projects/secrets"
)

// extensionName is what DuckDB accepts as an extension name; the
// extensions package installs and loads them (this package only reads the
// list).
var extensionName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// decodeExtensions reads `extensions: [ducklake, postgres, httpfs]`: the
// DuckDB extensions the warehouse loads for this project's SQL blocks.
func (d *decoder) decodeExtensions(p *Project, e entry) {
	names, nodes, _ := d.strList(e, "extensions")
	for i, name := range names {
		field := index("extensions", i)
		switch {
		case !extensionName.MatchString(name):
			d.addf(nodes[i], field, "extension %q: want a lower-case DuckDB extension name such as ducklake, postgres or httpfs", name)
		case slices.Contains(p.Extensions, name):
			d.addf(nodes[i], field, "extension %q is listed twice", name)
		default:
			p.Extensions = append(p.Extensions, name)
		}
	}
}

var secretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// decodeSecrets reads `secrets: {pg: {env: PG_URL}, api: {file: ~/.config/strata/api}}`:
// names and where their values are, never values (the secrets package
// reads those at run time).
func (d *decoder) decodeSecrets(p *Project, e entry) {
	n := e.val
	if n.Kind != yaml.MappingNode {
		d.addf(n, "secrets", "want a mapping of names to {env: VARIABLE} or {file: PATH}, got %s", describe(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		name := k.Value
		field := join("secrets", name)
		if k.Kind != yaml.ScalarNode || !secretName.MatchString(name) {
			d.addf(k, "secrets", "secret name %q: want letters, digits and _ (such as pg or api_token)", name)
			continue
		}
		if _, dup := p.Secrets[name]; dup {
			d.addf(k, field, "secret %q is written twice", name)
			continue
		}
		if v.Kind == yaml.MappingNode && mappingHas(v, "kind") {
			if sp, ok := d.decodeS3Secret(v, field, name); ok {
				if p.Secrets == nil {
					p.Secrets = map[string]secrets.Spec{}
				}
				p.Secrets[name] = sp
			}
			continue
		}
		f, ok := d.fields(v, field, "secret", secretFields)
		if !ok {
			continue
		}
		var sp secrets.Spec
		if e, ok := f["env"]; ok {
			if s, ok := d.str(e, join(field, "env")); ok {
				if !envName.MatchString(s) {
					d.addf(e.val, join(field, "env"), "environment variable %q: want letters, digits and _", s)
					continue
				}
				sp.Env = s
			}
		}
		if e, ok := f["file"]; ok {
			if s, ok := d.str(e, join(field, "file")); ok {
				if abs := secretFilePath(p.Dir, s); p.Dir != "" && secrets.Inside(p.Dir, abs) {
					d.addf(e.val, join(field, "file"), "file %s is inside the project folder, whose files are versioned (snapshots, diffs, the editor): keep it outside, for example in ~/.config/strata/", s)
					continue
				}
				sp.File = s
			}
		}
		switch {
		case sp.Env != "" && sp.File != "":
			d.addf(v, field, "secret %q has both env and file: want one", name)
		case sp.Env == "" && sp.File == "":
			d.addf(v, field, "secret %q says neither env nor file: want {env: VARIABLE} or {file: PATH}", name)
		default:
			if p.Secrets == nil {
				p.Secrets = map[string]secrets.Spec{}
			}
			p.Secrets[name] = sp
		}
	}
}

var secretFields = []string{"env", "file"}

// secretFilePath is where a secret file's path points, for the check that
// it is outside the project (~/ is the home folder, relative the project's).
func secretFilePath(dir, p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
