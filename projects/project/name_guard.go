package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// maxNameLen keeps ids within DuckDB's and most databases' identifier limit.
const maxNameLen = 63

var (
	blockIDPattern    = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	pipelineIDPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
)

// reservedNames cannot be block ids or product names: Go keywords and "main"
// cannot name the block's package, and DuckDB's reserved keywords (SELECT
// keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved')
// cannot be used unquoted as the relation a SQL block reads.
var reservedNames = map[string]string{}

func init() {
	for _, w := range strings.Fields(`break case chan const continue default defer else fallthrough
		for func go goto if import interface map package range return select struct switch type var`) {
		reservedNames[w] = "a Go keyword"
	}
	reservedNames["main"] = `"package main" cannot be imported by the worker`
	for _, w := range strings.Fields(`all analyse analyze and any array as asc asymmetric both case cast
		check collate column constraint create default deferrable desc describe distinct do else end
		except false fetch for foreign from group having in initially intersect into lambda lateral
		leading limit not null offset on only or order pivot pivot_longer pivot_wider placing primary
		qualify references returning select show some summarize symmetric table then to trailing true
		union unique unpivot using variadic when where window with`) {
		if _, ok := reservedNames[w]; !ok {
			reservedNames[w] = "a reserved SQL keyword"
		}
	}
}

// ValidateBlockID reports whether id can name a block: lowercase letters,
// digits and underscores, starting with a letter, at most 63 characters, and
// not a Go or SQL keyword. The id becomes a SQL relation name and the name of
// a Go package folder, so anything else would need quoting somewhere.
func ValidateBlockID(id string) error {
	return validateName("block id", id)
}

// ValidateProductName applies the block id rules to a product name: each
// product is a DuckDB view that users query by name.
func ValidateProductName(name string) error {
	return validateName("product name", name)
}

func validateName(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s is empty: want lowercase letters, digits and underscores, starting with a letter", what)
	}
	if len(s) > maxNameLen {
		return fmt.Errorf("%s %q is %d characters long: at most %d are allowed", what, s, len(s), maxNameLen)
	}
	if !blockIDPattern.MatchString(s) {
		msg := fmt.Sprintf("%s %q is not valid: use lowercase letters, digits and underscores, starting with a letter (it becomes a SQL relation and a Go package name)", what, s)
		if fix := suggestName(s); fix != "" && blockIDPattern.MatchString(fix) {
			msg += fmt.Sprintf("; try %q", fix)
		}
		return errors.New(msg)
	}
	if why, ok := reservedNames[s]; ok {
		return fmt.Errorf("%s %q is %s: choose another name, such as %q", what, s, why, s+"_data")
	}
	return nil
}

// ValidatePipelineID reports whether id can name a pipeline (its file name
// without .yaml): lowercase letters, digits, underscores and hyphens, starting
// with a letter. Pipeline ids appear in URLs and on command lines.
func ValidatePipelineID(id string) error {
	if id == "" {
		return errors.New("pipeline id is empty")
	}
	if len(id) > maxNameLen {
		return fmt.Errorf("pipeline id %q is %d characters long: at most %d are allowed", id, len(id), maxNameLen)
	}
	if !pipelineIDPattern.MatchString(id) {
		return fmt.Errorf("pipeline id %q is not valid: use lowercase letters, digits, _ and -, starting with a letter", id)
	}
	return nil
}

// suggestName turns "Raw-Orders" into "raw_orders" and "7day" into "b_7day".
func suggestName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r == '-', r == ' ', r == '.':
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out != "" && (out[0] < 'a' || out[0] > 'z') {
		out = "b_" + strings.TrimLeft(out, "_")
	}
	return out
}

// ErrUnsafePath is wrapped by SafeJoin's errors for paths that leave the
// project folder.
var ErrUnsafePath = errors.New("path leaves the project folder")

// SafeJoin joins rel (slash- or OS-separated) to projectDir and returns the
// absolute result, refusing absolute paths, paths that climb out with "..",
// and paths whose existing part resolves, through symbolic links, outside the
// project folder (dangling links included). Files that do not exist yet are
// allowed, so the server can create a block file with the same check.
//
// The check reads the file system now; a link created afterwards is not
// seen, so callers that write should open the returned path promptly.
func SafeJoin(projectDir, rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("empty path: want a path relative to the project folder")
	}
	if strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("path %q contains a NUL byte: %w", rel, ErrUnsafePath)
	}
	native := filepath.FromSlash(rel)
	if strings.HasPrefix(rel, "/") || filepath.IsAbs(native) || filepath.VolumeName(native) != "" {
		return "", fmt.Errorf("path %q is absolute: %w; want a path relative to the project folder", rel, ErrUnsafePath)
	}
	if !filepath.IsLocal(native) {
		return "", fmt.Errorf("path %q climbs out with \"..\": %w", rel, ErrUnsafePath)
	}
	root, err := filepath.Abs(projectDir)
	if err != nil {
		return "", fmt.Errorf("project folder %q: %w", projectDir, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("project folder: %w", err)
	}
	full := filepath.Join(root, native)
	real, err := realPath(full)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", rel, err)
	}
	if !within(realRoot, real) {
		return "", fmt.Errorf("path %q resolves to %s through a symbolic link: %w", rel, real, ErrUnsafePath)
	}
	return full, nil
}

// realPath resolves the symbolic links of p like filepath.EvalSymlinks, but
// also for paths whose last components do not exist yet and for dangling
// links, whose target is where a write would land.
func realPath(p string) (string, error) {
	var rest []string
	for hops := 0; hops < 255; hops++ {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			p = target
			continue
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
	return "", errors.New("too many levels of symbolic links")
}

// within reports whether p is root or lies below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || filepath.IsLocal(rel)
}
