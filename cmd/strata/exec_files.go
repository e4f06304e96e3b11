package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// blockFiles finds the block `strata exec` runs: its entry file and the
// other files of its package, as a project runs a block (a block is its
// folder's package; _test.go files are not part of it).
//
// For a folder, the entry file is <folder>/<folder>.go when present, else
// the only .go file, else the only file declaring Load, Transform or
// Export. A file runs alone (as `go run file.go` does: a folder of loose
// blocks, such as kernel/testdata/golden, holds unrelated files), unless it
// is a project block's own file, <folder>/<folder>.go: then its folder's
// files of the same package run with it, as in the project.
func blockFiles(arg string) (entry string, others []string, err error) {
	st, err := os.Stat(arg)
	if err != nil {
		return "", nil, err
	}
	dir := arg
	if !st.IsDir() {
		dir = filepath.Dir(arg)
	}
	all, err := goFiles(dir)
	if err != nil {
		return "", nil, err
	}
	if st.IsDir() {
		entry, err = entryFile(arg, all)
		if err != nil {
			return "", nil, err
		}
	} else {
		entry = arg
		if strings.TrimSuffix(filepath.Base(arg), ".go") != filepath.Base(filepath.Dir(filepath.Clean(arg))) {
			return entry, nil, nil
		}
	}
	pkg, err := packageName(entry)
	if err != nil {
		return "", nil, err
	}
	for _, f := range all {
		if sameFile(f, entry) {
			continue
		}
		if p, err := packageName(f); err == nil && p == pkg || st.IsDir() {
			// In a folder every file is the block's: a file of another
			// package is reported by the kernel, at its package clause.
			others = append(others, f)
		}
	}
	return entry, others, nil
}

func entryFile(dir string, all []string) (string, error) {
	named := filepath.Join(dir, filepath.Base(filepath.Clean(dir))+".go")
	if _, err := os.Stat(named); err == nil {
		return named, nil
	}
	if len(all) == 1 {
		return all[0], nil
	}
	var withEntry []string
	for _, f := range all {
		if declaresEntry(f) {
			withEntry = append(withEntry, f)
		}
	}
	if len(withEntry) == 1 {
		return withEntry[0], nil
	}
	names := make([]string, len(all))
	for i, f := range all {
		names[i] = filepath.Base(f)
	}
	return "", fmt.Errorf("%s: want a folder holding %s, one .go file, or one file declaring Load, Transform or Export (found %d .go files: %s; %d declare an entry)",
		dir, filepath.Base(named), len(all), strings.Join(names, ", "), len(withEntry))
}

// goFiles lists dir's .go files, _test.go and hidden files excepted.
func goFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.HasPrefix(n, ".") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	sort.Strings(out)
	return out, nil
}

func packageName(file string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
	if err != nil {
		return "", err
	}
	return f.Name.Name, nil
}

func declaresEntry(file string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
			switch fn.Name.Name {
			case "Load", "Transform", "Export":
				return true
			}
		}
	}
	return false
}

func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
