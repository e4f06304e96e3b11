package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/native"
	"github.com/stratahq/strata/kernel/protocol"
)

// Options say where and how to build.
type Options struct {
	// Dir is the project's build folder (e.g. <project>/.strata/build). It
	// must stay the same between builds: the Go build cache keys on paths.
	Dir   string
	Allow []string // opted-in restricted imports
	Tool  *Toolchain
	// Module is the folder of the project's go.mod ("" for none): blocks
	// import the modules it requires, at the versions its go.sum pins.
	Module string
	// Root is the folder block files are relative to (the project's), for
	// the files their //go:embed patterns match; empty: the working folder.
	Root string
}

// Worker is a built worker binary.
type Worker struct {
	Path string // the executable; start it with --memory-limit like `strata kernel`
	Hash string // content hash of everything it was built from
	// Failed holds the blocks that did not compile, by file, with their
	// errors; the binary serves the others.
	Failed map[string]*protocol.RunError
	// Cached is true when the binary was already built.
	Cached   bool
	Duration time.Duration
}

const workerModule = "strata.worker"

// runtimeSource is the module the worker's go.mod replaces the strata
// module with: only the packages a worker needs, all standard-library-only.
var runtimeSource = []struct {
	dir string
	fs  fs.FS
}{
	{"blocks/sdk", sdk.Source},
	{"kernel/protocol", protocol.Source},
	{"kernel/child", child.Source},
	{"kernel/native", native.Source},
}

// Build compiles blocks into a worker. Blocks that fail the checks or do not
// compile are left out and reported in Worker.Failed; the error is for
// problems of the build itself (no toolchain, a broken build folder).
func Build(ctx context.Context, opt Options, blocks []Block) (*Worker, error) {
	start := time.Now()
	if opt.Tool == nil {
		t, err := FindToolchain()
		if err != nil {
			return nil, err
		}
		opt.Tool = t
	}
	if abs, err := filepath.Abs(opt.Dir); err == nil {
		opt.Dir = abs
	}
	allow := map[string]bool{}
	for _, a := range opt.Allow {
		allow[a] = true
	}
	man, err := ReadManifest(opt.Module)
	if err != nil {
		return nil, err
	}
	w := &Worker{Failed: map[string]*protocol.RunError{}}
	var ok []*checked
	for _, b := range blocks {
		c, rerr := checkBlock(b, allow)
		if rerr != nil {
			w.Failed[b.File] = rerr
			continue
		}
		if c.embeds, err = embeddedFiles(opt.Root, b); err != nil {
			w.Failed[b.File] = &protocol.RunError{Kind: protocol.ErrCompile, File: b.File, Message: err.Error()}
			continue
		}
		ok = append(ok, c)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockDir(ctx, opt.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// A block the compiler rejects is dropped and the rest rebuilt, so one
	// broken block fails only its own runs, as it does interpreted.
	for {
		binary := func(cgo bool) (string, string) {
			h := contentHash(opt, man, ok, cgo)
			return h, filepath.Join(opt.Dir, "bin", "worker-"+h[:20])
		}
		if hash, path, found := cachedBinary(binary); found {
			w.Hash, w.Path, w.Cached = hash, path, true
			break
		}
		failed, cgo, err := compile(ctx, opt, man, ok, binary)
		if err != nil {
			return nil, err
		}
		w.Hash, w.Path = binary(cgo)
		if len(failed) == 0 {
			PruneBinaries(filepath.Join(opt.Dir, "bin"), 8)
			break
		}
		var rest []*checked
		for _, c := range ok {
			if rerr := failed[c.File]; rerr != nil {
				w.Failed[c.File] = rerr
			} else {
				rest = append(rest, c)
			}
		}
		if len(rest) == len(ok) { // errors we could not place: fail them all
			for _, c := range ok {
				w.Failed[c.File] = failed[""]
			}
			rest = nil
		}
		ok = rest
	}
	w.Duration = time.Since(start)
	return w, nil
}

// buildFormat names how blocks are rewritten and main generated; a change
// there changes the binary without changing any source it hashes, so it
// is bumped with it (2: package state reset before each run; 3: the
// reset order checked against a strict reading, init run with the run in
// a package that restarts instead; 4: a package that registers a name
// process-wide restarts).
const buildFormat = 4

// contentHash covers everything the binary depends on.
// cgo is whether it was built with cgo; a pure-Go build hashes as it did
// before cgo builds existed, so its cached binaries stay valid.
func contentHash(opt Options, man *Manifest, blocks []*checked, cgo bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", opt.Tool.Version, strings.Join(opt.Allow, ","))
	if cgo {
		fmt.Fprintf(h, "cgo\x00")
	}
	gomod, sum := man.goMod(workerModule, opt.Tool.goLine()), man.sum()
	fmt.Fprintf(h, "go.mod\x00%d\x00%s\x00go.sum\x00%d\x00%s", len(gomod), gomod, len(sum), sum)
	fmt.Fprintf(h, "\x00vendor\x00%s\x00", man.vendorStamp())
	for _, rs := range runtimeSource {
		_ = fs.WalkDir(rs.fs, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, _ := fs.ReadFile(rs.fs, p)
			fmt.Fprintf(h, "%s/%s\x00%d\x00", rs.dir, p, len(b))
			h.Write(b)
			return nil
		})
	}
	fmt.Fprintf(h, "early\x00%d\x00%s", len(earlyGuardSource), earlyGuardSource)
	fmt.Fprintf(h, "format\x00%d\x00", buildFormat)
	for _, b := range blocks {
		fmt.Fprintf(h, "block\x00%s\x00%s\x00%d\x00%s", b.File, b.entry, len(b.Source), b.Source)
		for _, f := range sortedKeys(b.Others) {
			fmt.Fprintf(h, "\x00%s\x00%d\x00%s", f, len(b.Others[f]), b.Others[f])
		}
		for _, f := range sortedEmbeds(b.embeds) {
			fmt.Fprintf(h, "\x00embed\x00%s\x00%d\x00", f, len(b.embeds[f]))
			h.Write(b.embeds[f])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// pkgDir is where a block's package lives in the build folder: stable per
// block file, so an unchanged block keeps its import path and cached object.
func pkgDir(file string) string {
	sum := sha256.Sum256([]byte(file))
	base := strings.TrimSuffix(path.Base(path.Dir(file)), "/")
	if base == "." || base == "" {
		base = strings.TrimSuffix(path.Base(file), ".go")
	}
	return "blocks/" + identOnly.ReplaceAllString(base, "_") + "_" + hex.EncodeToString(sum[:4])
}

var identOnly = regexp.MustCompile(`[^A-Za-z0-9_]`)

// compile writes the module and runs go build into the binary's path for
// the cgo choice (see needsCgo). It returns the compile errors by block
// file ("" for errors it could not place) and the choice.
func compile(ctx context.Context, opt Options, man *Manifest, blocks []*checked, binary func(cgo bool) (string, string)) (map[string]*protocol.RunError, bool, error) {
	files := map[string][]byte{}
	files["go.mod"] = man.goMod(workerModule, opt.Tool.goLine())
	if sum := man.sum(); len(sum) > 0 {
		files["go.sum"] = sum
	}
	files["rt/go.mod"] = []byte("module github.com/stratahq/strata\n\ngo " + opt.Tool.goLine() + "\n")
	for _, rs := range runtimeSource {
		err := fs.WalkDir(rs.fs, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := fs.ReadFile(rs.fs, p)
			files["rt/"+rs.dir+"/"+p] = b
			return err
		})
		if err != nil {
			return nil, false, err
		}
	}
	vendorFiles, err := man.vendorFiles()
	if err != nil {
		return nil, false, err
	}
	for name, b := range vendorFiles {
		files[name] = b
	}
	// real maps a path the go command may print back to the block's file.
	real := map[string]string{}
	for _, b := range blocks {
		dir := pkgDir(b.File)
		srcs := map[string]string{b.File: renameMain(b.Source)}
		for f, src := range b.Others {
			srcs[f] = renameMain(src)
		}
		pkg := b.pkg
		if pkg == "main" {
			pkg = "main_" // renameMain
		}
		reset := rewriteForReset(pkg, srcs)
		b.reset, b.fresh = reset.generated != "", reset.fresh
		for file, src := range reset.files {
			target := dir + "/" + path.Base(file)
			real[target] = file
			// The //line directive makes the compiler and runtime traces
			// speak of the block's own file and lines.
			files[target] = []byte("//line " + file + ":1:1\n" + rewriteExits(file, src))
		}
		for rel, data := range b.embeds {
			files[embedTarget(dir, rel)] = data
		}
		if reset.generated != "" {
			target := dir + "/strata_reset.go"
			real[target] = b.File
			files[target] = []byte(reset.generated)
		}
	}
	mainSrc, mainLines := generateMain(blocks)
	files["main.go"] = mainSrc
	files[earlyGuardPath+"/earlyguard_linux.go"] = []byte(earlyGuardSource)
	if err := syncTree(opt.Dir, files, []string{"go.mod", "go.sum", "main.go", "rt", "blocks", "a", vendorDir}); err != nil {
		return nil, false, err
	}
	cgo := needsCgo(ctx, opt, man)
	_, out := binary(cgo)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, false, err
	}
	tmp := out + ".tmp"
	cmd := exec.CommandContext(ctx, opt.Tool.Go, "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", tmp, ".")
	cmd.Dir = opt.Dir
	cmd.Env = cgoEnv(cgo)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		_ = os.Remove(tmp)
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		failed := mapErrors(stderr.String(), blocks, real, mainLines)
		if len(failed) == 0 {
			return nil, false, fmt.Errorf("go build in %s: %v\n%s", opt.Dir, err, strings.TrimSpace(stderr.String()))
		}
		return failed, cgo, nil
	}
	return nil, cgo, os.Rename(tmp, out)
}

// renameMain keeps a block declared as package main importable; the
// replacement is on the package line, so no other position moves.
func renameMain(src string) string {
	loc := mainClause.FindStringIndex(src)
	if loc == nil {
		return src
	}
	return src[:loc[0]] + strings.Replace(src[loc[0]:loc[1]], "main", "main_", 1) + src[loc[1]:]
}

var mainClause = regexp.MustCompile(`(?m)^package\s+main\b`)

// generateMain writes the worker's main and says which block each of its
// lines registers, to place errors the compiler reports there.
func generateMain(blocks []*checked) ([]byte, map[int]*checked) {
	var b bytes.Buffer
	lines := map[int]*checked{}
	line := 1
	w := func(s string, c *checked) {
		b.WriteString(s)
		n := strings.Count(s, "\n")
		for i := 0; i < n; i++ {
			if c != nil {
				lines[line+i] = c
			}
		}
		line += n
	}
	w("// Code generated by strata (kernel/build). DO NOT EDIT.\n\npackage main\n\nimport (\n", nil)
	w("\t\"github.com/stratahq/strata/blocks/sdk\"\n\t\"github.com/stratahq/strata/kernel/native\"\n", nil)
	w(fmt.Sprintf("\t_ %q\n", workerModule+"/"+earlyGuardPath), nil)
	for i, c := range blocks {
		w(fmt.Sprintf("\tb%d %q\n", i, workerModule+"/"+pkgDir(c.File)), c)
	}
	w(")\n\nvar _ *sdk.Table\n\nfunc main() {\n\tnative.Main(\n", nil)
	for i, c := range blocks {
		args := "ctx"
		for j := 0; j < c.tables; j++ {
			args += fmt.Sprintf(", in[%d]", j)
		}
		call := fmt.Sprintf("return b%d.%s(%s)", i, c.entry, args)
		if c.entry == "Export" {
			call = fmt.Sprintf("return nil, b%d.%s(%s)", i, c.entry, args)
		}
		check := "nil"
		if c.check {
			check = fmt.Sprintf("b%d.Check", i)
		}
		reset := "nil"
		if c.reset {
			reset = fmt.Sprintf("b%d.%s", i, resetName)
		}
		w(fmt.Sprintf("\t\tnative.Block{File: %q, Hash: %q, Entry: %q, Tables: %d, Reset: %s, Fresh: %t,\n", c.File, native.SourceHash(c.Source, c.otherFiles()...), c.entry, c.tables, reset, c.fresh), c)
		w(fmt.Sprintf("\t\t\tRun: func(ctx *sdk.Context, in []*sdk.Table) (*sdk.Table, error) { %s },\n", call), c)
		restricted := ""
		for _, imp := range sortedKeys(c.restricted) {
			restricted += fmt.Sprintf("%q: %q, ", imp, c.restricted[imp])
		}
		w(fmt.Sprintf("\t\t\tCheck: %s, Restricted: map[string]string{%s}},\n", check, restricted), c)
	}
	w("\t)\n}\n", nil)
	return b.Bytes(), lines
}

var errLine = regexp.MustCompile(`^(?:\./)?([^\s:][^:]*\.go):(\d+)(?::(\d+))?: (.*)$`)

// mapErrors turns go build's output into each block's diagnostics.
func mapErrors(out string, blocks []*checked, real map[string]string, mainLines map[int]*checked) map[string]*protocol.RunError {
	byFile := map[string]*checked{}
	for _, c := range blocks {
		byFile[c.File] = c
		for f := range c.Others {
			byFile[f] = c
		}
	}
	diags := map[string][]protocol.Diagnostic{}
	refused := map[string]bool{} // blocks whose imports no module provides offline
	var unplaced []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimRight(l, "\r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		m := errLine.FindStringSubmatch(l)
		if m == nil {
			if !strings.HasPrefix(l, "\t") && !strings.Contains(l, "too many errors") {
				unplaced = append(unplaced, l)
			}
			continue
		}
		file, msg := m[1], m[4]
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		msg, module := moduleMessage(msg)
		if f, ok := lineDirected(file, blocks); ok && (module || real[file] == "") {
			file = f // an import error, which the go command places by //line
		} else if f, ok := real[file]; ok {
			file, ln = f, max(1, ln-1) // the go command does not read //line: one line was added
		}
		if file == "main.go" {
			c := mainLines[ln]
			if c == nil {
				unplaced = append(unplaced, l)
				continue
			}
			want := "func " + c.entry + "(ctx *sdk.Context" + strings.Repeat(", *sdk.Table", c.tables) + ") (*sdk.Table, error)"
			if c.entry == "Export" {
				want = "func Export(ctx *sdk.Context" + strings.Repeat(", *sdk.Table", c.tables) + ") error"
			}
			if strings.Contains(msg, "Check") {
				want = "func Check(ctx *sdk.Context, out *sdk.Table) error"
			}
			diags[c.File] = append(diags[c.File], protocol.Diagnostic{File: c.File, Line: c.entryPos.Line, Column: c.entryPos.Column,
				Message: "the block does not match the contract " + want + ": " + strings.ReplaceAll(msg, fmt.Sprintf("b%d.", indexOf(blocks, c)), "")})
			continue
		}
		c := byFile[file]
		if c == nil {
			unplaced = append(unplaced, l)
			continue
		}
		if module {
			refused[c.File] = true
		}
		diags[c.File] = append(diags[c.File], protocol.Diagnostic{File: file, Line: ln, Column: col, Message: msg})
	}
	failed := map[string]*protocol.RunError{}
	for f, d := range diags {
		kind := protocol.ErrCompile
		if refused[f] {
			kind = protocol.ErrRefused
		}
		failed[f] = diagError(kind, f, d)
	}
	if len(unplaced) > 0 {
		failed[""] = &protocol.RunError{Kind: protocol.ErrCompile, Message: "go build: " + strings.Join(unplaced, "; ")}
		if len(diags) == 0 && len(blocks) == 1 {
			failed[blocks[0].File] = failed[""]
		}
	}
	return failed
}

// lineDirected recognizes a path the go command made of a package folder
// and a //line file name ("blocks/ids_8c6aaffa/blocks/ids/ids.go"), as it
// prints errors of imports, and returns the block file.
func lineDirected(file string, blocks []*checked) (string, bool) {
	for _, c := range blocks {
		rest, ok := strings.CutPrefix(file, pkgDir(c.File)+"/")
		if !ok {
			continue
		}
		if rest == c.File {
			return rest, true
		}
		if _, ok := c.Others[rest]; ok {
			return rest, true
		}
	}
	return "", false
}

func indexOf(blocks []*checked, c *checked) int {
	for i, b := range blocks {
		if b == c {
			return i
		}
	}
	return -1
}

// syncTree makes the managed entries of dir hold exactly files: unchanged
// files are not rewritten, files of blocks that left the project are removed.
func syncTree(dir string, files map[string][]byte, managed []string) error {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, content) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return err
		}
	}
	for _, top := range managed {
		root := filepath.Join(dir, top)
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			if _, ok := files[filepath.ToSlash(rel)]; !ok {
				_ = os.Remove(p)
			}
			return nil
		})
	}
	return nil
}

// PruneBinaries keeps the keep most recently used worker binaries in bin
// (the build folder's and a remote worker's cache of shipped builds alike).
func PruneBinaries(bin string, keep int) {
	entries, err := os.ReadDir(bin)
	if err != nil {
		return
	}
	type f struct {
		name string
		at   time.Time
	}
	var fs []f
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), "worker-") && !strings.HasSuffix(e.Name(), ".tmp") {
			fs = append(fs, f{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].at.After(fs[j].at) })
	for _, x := range fs[min(keep, len(fs)):] {
		_ = os.Remove(filepath.Join(bin, x.name))
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
