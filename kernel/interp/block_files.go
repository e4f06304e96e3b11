package interp

import (
	"path"
	"strings"
	"testing/fstest"
)

// A block whose package has several files runs as a source package that
// yaegi imports from a virtual GOPATH: every file rewritten on its own
// lines, under its own base name, so yaegi's positions name the file.
const blockImportPrefix = "strata.block/"

// packageFS returns the block's files, rewritten, as a GOPATH tree.
func (a *analysis) packageFS(lines bool) fstest.MapFS {
	fsys := fstest.MapFS{}
	dir := "src/" + blockImportPrefix + a.file.Name.Name + "/"
	for i := range a.files {
		fsys[dir+path.Base(a.names[i])] = &fstest.MapFile{Data: []byte(a.view(i).rewriteWith(a.srcs[i], lines))}
	}
	return fsys
}

// fileOf names the block file a yaegi message ("src/strata.block/b/x.go:3:1: …")
// is about, or def.
func (a *analysis) fileOf(msg, def string) string {
	head, _, ok := strings.Cut(msg, ":")
	if !ok || !strings.HasSuffix(head, ".go") {
		return def
	}
	for _, n := range a.names {
		if path.Base(n) == path.Base(head) {
			return n
		}
	}
	return def
}
