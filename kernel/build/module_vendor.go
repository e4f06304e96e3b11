package build

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// vendorDir is where a build module keeps the project's vendored modules,
// one folder per module, each given the go.mod that `go mod vendor` leaves
// out.
const vendorDir = "vendor-mods"

// vendored is one module of the project's vendor/modules.txt.
type vendored struct {
	Path, Version string
	GoLine        string // the module's go line ("1.21"), from "## explicit; go 1.21"
}

// readVendor reads dir/vendor/modules.txt: the modules `go mod vendor`
// copied into dir/vendor. A module the project replaces ("=>") is left to
// that replace. No vendor folder: nil.
//
// Why not -mod=vendor: a build is its own module (the worker's main, the
// runtime, the blocks), so the project's vendor folder does not describe
// it; instead each vendored module becomes a directory replace, and the
// go command never looks in the module cache for it.
func readVendor(dir string) ([]vendored, []byte, error) {
	txt, err := os.ReadFile(filepath.Join(dir, "vendor", "modules.txt"))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	var mods []vendored
	sc := bufio.NewScanner(bytes.NewReader(txt))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# "):
			f := strings.Fields(line[2:])
			if len(f) != 2 { // "# path version => replacement", or malformed
				continue
			}
			mods = append(mods, vendored{Path: f[0], Version: f[1]})
		case strings.HasPrefix(line, "## ") && len(mods) > 0:
			for _, part := range strings.Split(line[3:], ";") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(part), "go "); ok {
					mods[len(mods)-1].GoLine = v
				}
			}
		}
	}
	return mods, txt, sc.Err()
}

// vendorFiles is the vendor-mods tree of a build: each vendored module's
// files from project/vendor (not those of a module nested in it, which has
// its own folder) and a go.mod naming the module.
func (m *Manifest) vendorFiles() (map[string][]byte, error) {
	if m == nil || len(m.vendor) == 0 {
		return nil, nil
	}
	roots := map[string]bool{}
	for _, v := range m.vendor {
		roots[v.Path] = true
	}
	files := map[string][]byte{}
	for _, v := range m.vendor {
		goLine := v.GoLine
		if goLine == "" {
			goLine = "1.16" // what the go command assumes of a module without a go line
		}
		target := vendorDir + "/" + v.Path
		files[target+"/go.mod"] = []byte("module " + v.Path + "\n\ngo " + goLine + "\n")
		root := filepath.Join(m.dir, "vendor", filepath.FromSlash(v.Path))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel != "." && roots[path.Join(v.Path, rel)] {
					return filepath.SkipDir
				}
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[target+"/"+rel] = b
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("the project's vendor folder: %w", err)
		}
	}
	return files, nil
}

// vendorStamp changes when vendor/modules.txt or any vendored file does
// (by size and modification time: a build is not worth reading every
// vendored file to hash).
func (m *Manifest) vendorStamp() string {
	if m == nil || len(m.vendor) == 0 {
		return ""
	}
	h := sha256.New()
	h.Write(m.vendorTxt)
	var lines []string
	_ = filepath.WalkDir(filepath.Join(m.dir, "vendor"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			lines = append(lines, fmt.Sprintf("%s\x00%d\x00%d", p, info.Size(), info.ModTime().UnixNano()))
		}
		return nil
	})
	sort.Strings(lines)
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// VendorFiles is the tree a build module keeps its vendored modules in
// (under VendorDir), nil without a vendor folder.
func (m *Manifest) VendorFiles() (map[string][]byte, error) { return m.vendorFiles() }

// VendorStamp changes when the project's vendored modules do.
func (m *Manifest) VendorStamp() string { return m.vendorStamp() }

// VendorDir is the folder of a build module VendorFiles fills.
const VendorDir = vendorDir
