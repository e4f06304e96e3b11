package projectkernel

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
	"github.com/stratahq/strata/kernel/procstate"
	"github.com/stratahq/strata/kernel/protocol"
)

// Options say where and for which project to build.
type Options struct {
	// Dir is the build folder (e.g. <project>/.strata/kernel). It must stay
	// the same between builds: the Go build cache keys on paths.
	Dir string
	// Project is the folder of the project's go.mod and go.sum.
	Project string
	Tool    *build.Toolchain // nil: build.FindToolchain
	// Progress, when set, hears what a build that is not cached is doing
	// ("extracting the symbols of uuid", "compiling: 12 packages, last …"),
	// so a cell waiting on a first build of a minute says more than "…".
	Progress func(step string)
}

// step tells opt.Progress, when there is one.
func (opt Options) step(format string, args ...any) {
	if opt.Progress != nil {
		opt.Progress(fmt.Sprintf(format, args...))
	}
}

// Kernel is a built project kernel.
type Kernel struct {
	Path    string   // the executable; start it as `strata kernel` is started
	Hash    string   // what it was built from
	Imports []string // the third-party packages it carries, sorted
	// Gaps are the packages its tables do not carry, with why: a block
	// importing one runs compiled.
	Gaps     map[string]string
	Cached   bool // found built: no go command ran
	Duration time.Duration
}

// Command is how to start the kernel (supervisor.Config.Command).
func (k *Kernel) Command() []string { return []string{k.Path} }

// ImportError is an import the build could not resolve offline: not in
// go.mod, or not in the module cache. Message says what to do.
type ImportError struct {
	Path    string
	Message string
}

func (e *ImportError) Error() string { return e.Message }

// RunError is the error as a block's run reports it, at the import's line
// in src, the block's file.
func (e *ImportError) RunError(file, src string) *protocol.RunError {
	re := &protocol.RunError{Kind: protocol.ErrRefused, File: file, Message: e.Message}
	if e.Path == "" {
		return re
	}
	for i, l := range strings.Split(src, "\n") {
		if c := strings.Index(l, `"`+e.Path+`"`); c >= 0 {
			re.Line, re.Column = i+1, c+1
			re.Diagnostics = []protocol.Diagnostic{{File: file, Line: re.Line, Column: re.Column, Message: re.Message}}
			break
		}
	}
	return re
}

// buildFormat changes when the generated code changes meaning.
const buildFormat = 1

const kernelModule = "strata.projectkernel"

// yaegiModule is the interpreter's module, which a project kernel links.
const yaegiModule = "github.com/traefik/yaegi"

// runtimeSource is what the build module's ./rt replaces the strata module
// with: the interpreter kernel and what it imports of strata.
var runtimeSource = []struct {
	dir string
	fs  fs.FS
}{
	{"blocks/sdk", sdk.Source},
	{"kernel/protocol", protocol.Source},
	{"kernel/child", child.Source},
	{"kernel/procstate", procstate.Source},
	{"kernel/interp", interp.Source},
}

// Build builds (or finds built) the kernel carrying imports, the
// third-party import paths blocks use. An import the go command cannot
// resolve offline is an *ImportError.
func Build(ctx context.Context, opt Options, imports []string) (*Kernel, error) {
	start := time.Now()
	if opt.Tool == nil {
		t, err := build.FindToolchain()
		if err != nil {
			return nil, err
		}
		opt.Tool = t
	}
	if abs, err := filepath.Abs(opt.Dir); err == nil {
		opt.Dir = abs
	}
	imports = normalize(imports)
	man, err := build.ReadManifest(opt.Project)
	if err != nil {
		return nil, err
	}
	gomod := man.GoMod(kernelModule, opt.Tool.GoLine(), yaegiModule+" "+yaegiVersion())
	sum := man.GoSum()
	// What the hashes cover: go.sum, and the vendored modules' stamp when
	// the project vendors (their source is not in go.sum's pins).
	hashedSum := append(append([]byte{}, sum...), man.VendorStamp()...)
	k := &Kernel{Imports: imports, Gaps: map[string]string{}}
	k.Hash = contentHash(opt.Tool.Version, gomod, hashedSum, imports)
	bin := filepath.Join(opt.Dir, "bin", "kernel-"+k.Hash[:20])
	k.Path = bin
	if loadMeta(bin, k) {
		k.Cached, k.Duration = true, time.Since(start)
		now := time.Now()
		_ = os.Chtimes(bin, now, now)
		return k, nil
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := build.LockDir(ctx, opt.Dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if loadMeta(bin, k) { // another process built it while we waited
		k.Cached, k.Duration = true, time.Since(start)
		return k, nil
	}
	files := map[string][]byte{"go.mod": gomod, "rt/go.mod": []byte("module github.com/stratahq/strata\n\ngo " + opt.Tool.GoLine() + "\n"),
		"gen/main.go": []byte(extractorSource)}
	if len(sum) > 0 {
		files["go.sum"] = sum
	}
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
			return nil, err
		}
	}
	vendorFiles, err := man.VendorFiles()
	if err != nil {
		return nil, err
	}
	for name, b := range vendorFiles {
		files[name] = b
	}
	// main.go is written after extraction; the symbol files are the
	// extractor's, pruned below.
	if err := build.SyncTree(opt.Dir, files, []string{"rt", "gen", build.VendorDir}); err != nil {
		return nil, err
	}
	// A table depends on the package's source (its module's version, so
	// go.mod and go.sum) and the extractor: one extracted under the same
	// stamp is kept, so adding an import extracts only that package (each
	// extraction type-checks the package and the standard library it
	// uses from source: seconds).
	stamp := contentHash(opt.Tool.Version, gomod, hashedSum, nil)
	stamps := readStamps(opt.Dir)
	var todo []string
	for _, p := range imports {
		if stamps[p] != stamp || !restoreTable(opt.Dir, p, stamps) {
			todo = append(todo, p)
		}
	}
	if len(todo) > 0 {
		opt.step("extracting the symbols of %s", strings.Join(todo, ", "))
	}
	gaps, err := extractSymbols(ctx, opt, todo)
	if err != nil {
		return nil, err
	}
	for _, p := range imports {
		if why, ok := stamps["gap:"+p]; ok && stamps[p] == stamp {
			gaps[p] = why
		}
	}
	next := map[string]string{}
	for _, p := range imports {
		next[p] = stamp
		if why, ok := gaps[p]; ok {
			next["gap:"+p] = why
		}
	}
	for p, st := range stamps { // tables of other sets stay usable
		if _, ok := next[p]; !ok && !strings.HasPrefix(p, "gap:") && st == stamp {
			next[p] = st
			if why, ok := stamps["gap:"+p]; ok {
				next["gap:"+p] = why
			}
		}
	}
	k.Gaps = gaps
	if err := pruneSymbolFiles(opt.Dir, imports, gaps); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(opt.Dir, "main.go"), generateMain(gaps), 0o644); err != nil {
		return nil, err
	}
	if err := writeStamps(opt.Dir, next); err != nil {
		return nil, err
	}
	opt.step("compiling the kernel")
	if err := goCmd(ctx, opt, "build", "-v", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", bin+".tmp", "."); err != nil {
		_ = os.Remove(bin + ".tmp")
		return nil, err
	}
	meta, _ := json.Marshal(k)
	if err := os.WriteFile(bin+".json", meta, 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(bin+".tmp", bin); err != nil {
		return nil, err
	}
	pruneKernels(filepath.Join(opt.Dir, "bin"), 4)
	k.Duration = time.Since(start)
	return k, nil
}

// extractSymbols builds the extractor (cached by the go command like any
// build) and runs it in the build folder.
func extractSymbols(ctx context.Context, opt Options, imports []string) (map[string]string, error) {
	gaps := cgoGaps(ctx, opt, imports)
	imports = slices.DeleteFunc(slices.Clone(imports), func(p string) bool { _, gap := gaps[p]; return gap })
	if len(imports) == 0 {
		return gaps, nil
	}
	ext := filepath.Join(opt.Dir, "bin", "extract")
	if err := goCmd(ctx, opt, "build", "-trimpath", "-buildvcs=false", "-o", ext, "./gen"); err != nil {
		return nil, fmt.Errorf("build the symbol extractor: %w", err)
	}
	// The extractor finds packages with go/build, which asks the go
	// command only when it knows GOROOT; a -trimpath binary does not.
	goroot, err := exec.CommandContext(ctx, opt.Tool.Go, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	cmd := exec.CommandContext(ctx, ext, imports...)
	cmd.Dir = opt.Dir
	cmd.Env = append(build.Env(), "GOROOT="+strings.TrimSpace(string(goroot)))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("extract symbols of %s: %v\n%s", strings.Join(imports, ", "), err, strings.TrimSpace(stderr.String()))
	}
	var raw map[string]string
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil {
		return nil, fmt.Errorf("extract symbols: %v (%q)", err, stdout.String())
	}
	for p, msg := range raw {
		if hint, ok := importProblem(p, msg); ok {
			return nil, &ImportError{Path: p, Message: hint}
		}
		gaps[p] = fmt.Sprintf("package %s is not in the project kernel (%s): it runs compiled", p, msg)
	}
	return gaps, nil
}

var cannotFind = regexp.MustCompile(`cannot find package|no required module provides package|module lookup disabled|is not in std|missing go.sum entry`)

// importProblem says whether msg, why p could not be loaded, is a module
// the project has not got (go get, strata mod download) rather than a
// package that cannot be carried.
func importProblem(p, msg string) (string, bool) {
	if !cannotFind.MatchString(msg) {
		return "", false
	}
	if strings.Contains(msg, "module lookup disabled") && !strings.Contains(msg, "cannot find module providing") {
		return fmt.Sprintf("package %s: a module it needs is not in the module cache, and builds never download: run `strata mod download` in the project folder while online (%s)", p, msg), true
	}
	return fmt.Sprintf("package %s is not provided by any module of the project's go.mod: run `go get %s` (or `strata mod add %s@VERSION`) in the project folder", p, p, p), true
}

// goCmd runs the go command in the build folder, offline.
func goCmd(ctx context.Context, opt Options, args ...string) error {
	cmd := exec.CommandContext(ctx, opt.Tool.Go, args...)
	cmd.Dir = opt.Dir
	cmd.Env = build.Env()
	out := &compileLog{opt: opt, every: 2 * time.Second}
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	text := strings.TrimSpace(out.buf.String())
	for _, l := range strings.Split(text, "\n") {
		// "./symbols_x.go:5:2: …" or "go: …": the first module problem wins.
		msg := l
		if i := strings.LastIndex(l, ": "); i > 0 && strings.Contains(l, ".go:") {
			msg = l[i+2:]
		}
		if hint, ok := build.ModuleMessage(msg); ok {
			return &ImportError{Message: hint}
		}
	}
	return fmt.Errorf("go %s in %s: %v\n%s", args[0], opt.Dir, err, text)
}

// generateMain is the kernel's main: `strata kernel` with the tables.
func generateMain(gaps map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString(`// Code generated by strata (kernel/projectkernel). DO NOT EDIT.

package main

import (
	"flag"
	"fmt"
	"os"
	"reflect"

	"github.com/stratahq/strata/kernel/child"
	"github.com/stratahq/strata/kernel/interp"
)

// Symbols is filled by the symbols_*.go files, as yaegi's extract writes them.
var Symbols = map[string]map[string]reflect.Value{}

var gaps = map[string]string{
`)
	keys := make([]string, 0, len(gaps))
	for k := range gaps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\t%q: %q,\n", k, gaps[k])
	}
	b.WriteString(`}

func main() {
	fs := flag.NewFlagSet("kernel", flag.ExitOnError)
	mem := fs.Int64("memory-limit", 0, "memory limit in bytes")
	_ = fs.Parse(os.Args[1:])
	interp.UseModules(Symbols, gaps)
	if err := child.Main(interp.NewExecutor(), child.Options{MemoryLimit: *mem}); err != nil {
		fmt.Fprintln(os.Stderr, "strata kernel:", err)
		os.Exit(1)
	}
}
`)
	return b.Bytes()
}

var notIdent = regexp.MustCompile("[^A-Za-z0-9]+")

// symbolFile is the file the extractor writes for import path p.
func symbolFile(p string) string {
	return "symbols_" + strings.Trim(notIdent.ReplaceAllString(p, "_"), "_") + ".go"
}

// spareDir keeps the tables of packages the current set does not import
// (the go command ignores folders starting with _), for a later set.
const spareDir = "_tables"

// restoreTable brings p's table back from spareDir if it is there; it
// reports whether p has its table (or its recorded gap) in place.
func restoreTable(dir, p string, stamps map[string]string) bool {
	if _, gap := stamps["gap:"+p]; gap {
		return true
	}
	name := symbolFile(p)
	if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
		return true
	}
	return os.Rename(filepath.Join(dir, spareDir, name), filepath.Join(dir, name)) == nil
}

// pruneSymbolFiles moves tables of packages no longer imported aside.
func pruneSymbolFiles(dir string, imports []string, gaps map[string]string) error {
	keep := map[string]bool{}
	for _, p := range imports {
		if _, gap := gaps[p]; !gap {
			keep[symbolFile(p)] = true
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "symbols_*.go"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if !keep[filepath.Base(n)] {
			if err := os.MkdirAll(filepath.Join(dir, spareDir), 0o755); err != nil {
				return err
			}
			if err := os.Rename(n, filepath.Join(dir, spareDir, filepath.Base(n))); err != nil {
				return err
			}
		}
	}
	return nil
}

const stampFile = "symbols.json"

// readStamps maps each import path whose table is in the folder to the
// stamp it was extracted under ("gap:"+path: why it has none).
func readStamps(dir string) map[string]string {
	m := map[string]string{}
	b, err := os.ReadFile(filepath.Join(dir, stampFile))
	if err == nil {
		_ = json.Unmarshal(b, &m)
	}
	return m
}

func writeStamps(dir string, m map[string]string) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, stampFile), b, 0o644)
}

// loadMeta fills k from the record written beside a built binary.
func loadMeta(bin string, k *Kernel) bool {
	if _, err := os.Stat(bin); err != nil {
		return false
	}
	b, err := os.ReadFile(bin + ".json")
	if err != nil {
		return false
	}
	var m Kernel
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	k.Gaps = m.Gaps
	if k.Gaps == nil {
		k.Gaps = map[string]string{}
	}
	return true
}

// pruneKernels keeps the keep most recently used kernels in bin (each is
// tens of megabytes: the interpreter and the standard library's tables).
func pruneKernels(bin string, keep int) {
	metas, _ := filepath.Glob(filepath.Join(bin, "kernel-*.json"))
	type used struct {
		path string
		at   time.Time
	}
	var all []used
	for _, m := range metas {
		p := strings.TrimSuffix(m, ".json")
		info, err := os.Stat(p)
		if err != nil {
			_ = os.Remove(m)
			continue
		}
		all = append(all, used{p, info.ModTime()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	for _, u := range all[min(keep, len(all)):] {
		_ = os.Remove(u.path)
		_ = os.Remove(u.path + ".json")
	}
}

func contentHash(goVersion string, gomod, sum []byte, imports []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", goVersion, buildFormat)
	fmt.Fprintf(h, "go.mod\x00%d\x00%s\x00go.sum\x00%d\x00%s\x00", len(gomod), gomod, len(sum), sum)
	fmt.Fprintf(h, "extract\x00%s\x00", extractorSource)
	for _, rs := range runtimeSource {
		_ = fs.WalkDir(rs.fs, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, _ := fs.ReadFile(rs.fs, p)
			fmt.Fprintf(h, "%s/%s\x00%d\x00", rs.dir, p, len(b))
			h.Write(b)
			return nil
		})
	}
	for _, p := range imports {
		fmt.Fprintf(h, "import\x00%s\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// normalize sorts imports and drops duplicates and non-module paths.
func normalize(imports []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range imports {
		if interp.IsModuleImport(p) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// yaegiVersion is the interpreter version this strata binary was built
// with: the project kernel links the same one.
func yaegiVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == yaegiModule {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return "v0.16.1"
}

// compileLog keeps what the go command prints and, with -v (one import
// path per package compiled), tells Progress how far it got, at most once
// per every.
type compileLog struct {
	opt      Options
	every    time.Duration
	buf      bytes.Buffer
	partial  []byte
	packages int
	last     time.Time
}

func (c *compileLog) Write(p []byte) (int, error) {
	c.buf.Write(p)
	c.partial = append(c.partial, p...)
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		line := strings.TrimSpace(string(c.partial[:i]))
		c.partial = c.partial[i+1:]
		if line == "" || strings.ContainsAny(line, " :") { // an error, not a package path
			continue
		}
		c.packages++
		if now := time.Now(); now.Sub(c.last) >= c.every {
			c.last = now
			c.opt.step("compiling: %d packages, now %s", c.packages, line)
		}
	}
	return len(p), nil
}
