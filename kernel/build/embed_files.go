package build

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// maxEmbedBytes bounds what the //go:embed patterns of one block may carry
// into its build: the files are hashed and copied on every build.
const maxEmbedBytes = 256 << 20

// embeddedFiles reads the files a block's //go:embed patterns match from
// its folder (root joined with the block file's folder), by their path
// relative to that folder, slash-separated. The build writes its sources
// into a folder of its own, so without them `go build` reported "pattern
// folder/*.hash: no matching files found". A pattern that matches nothing
// is left to the compiler to report at its line.
func embeddedFiles(root string, b Block) (map[string][]byte, error) {
	var patterns []string
	srcs := map[string]string{b.File: b.Source}
	for f, s := range b.Others {
		srcs[f] = s
	}
	for name, src := range srcs {
		if !strings.Contains(src, "//go:embed") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil // checkBlock reports it
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if rest, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
					ps, err := embedPatterns(rest)
					if err != nil {
						return nil, fmt.Errorf("%s: //go:embed %s: %w", name, rest, err)
					}
					patterns = append(patterns, ps...)
				}
			}
		}
	}
	if len(patterns) == 0 {
		return nil, nil
	}
	dir := filepath.Dir(filepath.FromSlash(b.File))
	if root != "" && !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	out := map[string][]byte{}
	total := 0
	add := func(p string) error {
		rel, err := filepath.Rel(dir, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil // outside the folder: the compiler refuses the pattern
		}
		rel = filepath.ToSlash(rel)
		if _, ok := out[rel]; ok {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("embedded file %s: %w", rel, err)
		}
		if total += len(data); total > maxEmbedBytes {
			return fmt.Errorf("the //go:embed files of %s hold more than %d MiB", b.File, maxEmbedBytes>>20)
		}
		out[rel] = data
		return nil
	}
	for _, pat := range patterns {
		all := strings.HasPrefix(pat, "all:")
		pat = strings.TrimPrefix(pat, "all:")
		matches, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pat)))
		if err != nil {
			return nil, fmt.Errorf("//go:embed %s: %w", pat, err)
		}
		for _, m := range matches {
			st, err := os.Stat(m)
			if err != nil {
				continue
			}
			if !st.IsDir() {
				if err := add(m); err != nil {
					return nil, err
				}
				continue
			}
			// A folder brings its files, without those named .* or _*
			// below it unless the pattern says all:, as go build does.
			err = filepath.WalkDir(m, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if p != m && !all && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() {
					return add(p)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// embedPatterns splits a //go:embed line as the go command does: patterns
// separated by spaces, each may be a Go string literal.
func embedPatterns(s string) ([]string, error) {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		var p string
		switch s[0] {
		case '"', '`':
			end := strings.IndexByte(s[1:], s[0])
			if end < 0 {
				return nil, fmt.Errorf("unterminated %c", s[0])
			}
			q, err := strconv.Unquote(s[:end+2])
			if err != nil {
				return nil, err
			}
			p, s = q, s[end+2:]
		default:
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				i = len(s)
			}
			p, s = s[:i], s[i:]
		}
		out = append(out, p)
		s = strings.TrimSpace(s)
	}
	return out, nil
}

// sortedEmbeds lists a block's embedded files' paths in order, for hashing.
func sortedEmbeds(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// embedTarget is where an embedded file goes in the build folder: beside
// the block's sources in its package folder, at its path relative to them.
func embedTarget(pkgDir, rel string) string { return path.Join(pkgDir, rel) }
