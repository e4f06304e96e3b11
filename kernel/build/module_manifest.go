package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/modfile"
)

// strataModule is the module path of the SDK and kernel runtime: a build
// replaces it with the source the binary carries, whatever the project's
// go.mod says of it.
const strataModule = "github.com/stratahq/strata"

// Manifest is a project's module requirements as a build uses them: the
// project's go.mod, with its own module line and its replace of the SDK
// left out, and its go.sum.
type Manifest struct {
	Requires []*modfile.Require
	Replaces []*modfile.Replace // local paths made absolute
	Sum      []byte

	dir       string     // the project folder
	vendor    []vendored // vendor/modules.txt, when the project vendors
	vendorTxt []byte
}

// ReadManifest reads dir/go.mod and dir/go.sum. A folder without a go.mod
// has no requirements (nil, nil): its blocks import the standard library
// and the SDK only.
func ReadManifest(dir string) (*Manifest, error) {
	if dir == "" {
		return nil, nil
	}
	p := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(p, data, nil)
	if err != nil {
		return nil, fmt.Errorf("the project's go.mod: %w", err)
	}
	m := &Manifest{dir: dir}
	if m.vendor, m.vendorTxt, err = readVendor(dir); err != nil {
		return nil, fmt.Errorf("the project's vendor/modules.txt: %w", err)
	}
	for _, r := range f.Require {
		if r.Mod.Path != strataModule {
			m.Requires = append(m.Requires, r)
		}
	}
	for _, r := range f.Replace {
		if r.Old.Path == strataModule {
			continue
		}
		if modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			cp := *r
			cp.New.Path = filepath.Join(dir, filepath.FromSlash(r.New.Path))
			r = &cp
		}
		m.Replaces = append(m.Replaces, r)
	}
	if sum, err := os.ReadFile(filepath.Join(dir, "go.sum")); err == nil {
		m.Sum = sum
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return m, nil
}

// goMod writes the go.mod of a build module named module: the project's
// requirements, plus extra (e.g. the interpreter a project kernel links),
// and the strata module replaced by ./rt.
func (m *Manifest) goMod(module, goLine string, extra ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire %s v0.0.0\n\nreplace %s => ./rt\n", module, goLine, strataModule, strataModule)
	if m == nil && len(extra) == 0 {
		return []byte(b.String())
	}
	b.WriteString("\nrequire (\n")
	for _, e := range extra {
		fmt.Fprintf(&b, "\t%s\n", e)
	}
	if m != nil {
		for _, r := range m.Requires {
			ind := ""
			if r.Indirect {
				ind = " // indirect"
			}
			fmt.Fprintf(&b, "\t%s %s%s\n", r.Mod.Path, r.Mod.Version, ind)
		}
	}
	b.WriteString(")\n")
	if m != nil {
		for _, r := range m.Replaces {
			old := r.Old.Path
			if r.Old.Version != "" {
				old += " " + r.Old.Version
			}
			nw := r.New.Path
			if r.New.Version != "" {
				nw += " " + r.New.Version
			}
			fmt.Fprintf(&b, "\nreplace %s => %s\n", old, nw)
		}
		for _, v := range m.vendor {
			fmt.Fprintf(&b, "\nreplace %s %s => ./%s/%s\n", v.Path, v.Version, vendorDir, v.Path)
		}
	}
	return []byte(b.String())
}

func (m *Manifest) sum() []byte {
	if m == nil {
		return nil
	}
	return m.Sum
}

var (
	notCached  = regexp.MustCompile(`^(\S+)@(\S+): module lookup disabled by GOPROXY=off$`)
	notInGoMod = regexp.MustCompile(`^cannot find module providing package (\S+): module lookup disabled by GOPROXY=off$`)
	cgoOnly    = regexp.MustCompile(`^build constraints exclude all Go files in (\S+)$`)
)

// moduleMessage rewrites what the go command says of a module it could not
// use offline into what the user does about it (module true: the run is
// refused rather than failed to compile); other messages pass.
func moduleMessage(msg string) (string, bool) {
	if out := moduleHint(msg); out != msg {
		return out, true
	}
	return msg, false
}

func moduleHint(msg string) string {
	if m := notCached.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("module %s@%s is not in the module cache, and runs never download: run `strata mod download` in the project folder while online", m[1], m[2])
	}
	if m := notInGoMod.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("package %s is not provided by any module of the project's go.mod: run `go get %s` (or `strata mod add %s@VERSION`) in the project folder", m[1], m[1], m[1])
	}
	if m := cgoOnly.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("package %s has no pure-Go files and builds only with cgo, and no C compiler was found: install gcc (or set CC to a C compiler)", m[1])
	}
	if msg == "module lookup disabled by GOPROXY=off" {
		return "a module this import needs is not in the module cache, and runs never download: run `strata mod download` in the project folder while online"
	}
	return msg
}

// GoMod is the go.mod of a build module named module for the requirements
// of m (nil: none) and extra lines ("path version") to require as well.
func (m *Manifest) GoMod(module, goLine string, extra ...string) []byte {
	return m.goMod(module, goLine, extra...)
}

// GoSum is the project's go.sum (nil when there is none).
func (m *Manifest) GoSum() []byte { return m.sum() }

// GoLine is the toolchain's version as a go.mod go line ("1.26.8").
func (t *Toolchain) GoLine() string { return t.goLine() }

// Env is the environment of every go command a build runs (see buildEnv).
func Env() []string { return buildEnv() }

// SyncTree makes the managed entries of dir hold exactly files, leaving
// unchanged files untouched so the Go build cache stays warm.
func SyncTree(dir string, files map[string][]byte, managed []string) error {
	return syncTree(dir, files, managed)
}

// LockDir serializes builds of one folder across processes.
func LockDir(ctx context.Context, dir string) (func(), error) { return lockDir(ctx, dir) }

// ModuleMessage rewrites what the go command says of a module it could not
// use offline into what the user does about it; ok is false for others.
func ModuleMessage(msg string) (string, bool) { return moduleMessage(msg) }
