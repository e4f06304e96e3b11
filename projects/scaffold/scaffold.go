// Package scaffold creates project folders: `strata init DIR [--demo]`. It
// writes the project files, a go.mod that resolves the SDK offline (through a
// replace to the SDK source the binary carries), and a .gitignore for the
// warehouse.
package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/blocks/sdk/sdktest"
	"github.com/stratahq/strata/projects/demo"
)

// SDKModule is the module blocks import the SDK from.
const SDKModule = "github.com/stratahq/strata"

const emptyProject = `# Strata project settings.
name: %s
timezone: UTC
retention: 3
kernel:
  memory_limit: 2GiB
  timeout: 30s
  allow: []
`

// Demos are the demo projects `strata init DIR --demo NAME` writes: clv
// (the default) and shop.
var Demos = []string{"clv", "shop"}

// Init creates a project in dir, which must not exist or be empty. With
// withDemo it holds the demo pipeline, else an empty project.
func Init(dir string, withDemo bool) error {
	if withDemo {
		return InitDemo(dir, "clv")
	}
	return initProject(dir, "")
}

// InitDemo creates demo project name (one of Demos) in dir.
func InitDemo(dir, name string) error {
	switch name {
	case "clv", "shop":
		return initProject(dir, name)
	}
	return fmt.Errorf("no demo %q: the demos are %s", name, strings.Join(Demos, ", "))
}

// initProject writes demo project demoName, or an empty project when it is "".
func initProject(dir, demoName string) error {
	withDemo := demoName != ""
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s already exists and is not empty: choose a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	name := filepath.Base(filepath.Clean(dir))
	if demoName == "shop" {
		sub, err := fs.Sub(demo.Shop, "shop")
		if err != nil {
			return err
		}
		if err := copyFS(dir, sub); err != nil {
			return err
		}
	} else if withDemo {
		sub, err := fs.Sub(demo.Files, "template")
		if err != nil {
			return err
		}
		if err := copyFS(dir, sub); err != nil {
			return err
		}
	} else {
		for _, d := range []string{"pipelines", "blocks"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "strata.yaml"), []byte(fmt.Sprintf(emptyProject, name)), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".strata/\n"), 0o644); err != nil {
		return err
	}
	return WriteGoModule(dir, name)
}

var nonModuleChars = regexp.MustCompile(`[^a-zA-Z0-9._/-]+`)

// WriteGoModule writes the project's go.mod and the SDK copy it points at.
// It is safe to run again: it refreshes the SDK copy after an upgrade.
func WriteGoModule(dir, name string) error {
	mod := nonModuleChars.ReplaceAllString(strings.ToLower(name), "_")
	if mod == "" || mod == "." {
		mod = "project"
	}
	gomod := fmt.Sprintf("module %s\n\ngo 1.26\n\nrequire %s v0.0.0\n\n// The SDK source ships inside the strata binary; `strata init` writes it here.\nreplace %s => ./.strata/sdk\n", mod, SDKModule, SDKModule)
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
			return err
		}
	}
	sdkDir := filepath.Join(dir, ".strata", "sdk")
	if err := os.MkdirAll(filepath.Join(sdkDir, "blocks", "sdk"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(sdkDir, "go.mod"), []byte("module "+SDKModule+"\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	if err := copyFS(filepath.Join(sdkDir, "blocks", "sdk"), sdk.Source); err != nil {
		return err
	}
	// The block tests' helpers (a package of the SDK module, std-lib only too).
	return copyFS(filepath.Join(sdkDir, "blocks", "sdk", "sdktest"), sdktest.Source)
}

func copyFS(dst string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		// A template's Go files and go.mod end in .tmpl: they import
		// modules strata's own go.mod does not require, and a go.mod below
		// this module's folder could not be embedded.
		target = strings.TrimSuffix(target, ".tmpl")
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
