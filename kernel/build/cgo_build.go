package build

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// A worker is built pure Go (CGO_ENABLED=0) unless a third-party package
// it links has cgo files and a C compiler is found: then that worker is
// built with cgo, in the same folder with the same flags. A package's
// pure-Go fallback may build yet only fail at run time (go-sqlite3's stub
// says "requires cgo to work"), so the build does not wait for the go
// command's "build constraints exclude all Go files" to choose cgo.

// cCompiler is the C compiler a cgo build would use: the CC environment
// variable's command when set, else gcc or cc on PATH, as the go command
// looks for it. ok is false when none is found.
func cCompiler() (string, bool) {
	if cc := strings.Fields(os.Getenv("CC")); len(cc) > 0 {
		p, err := exec.LookPath(cc[0])
		return p, err == nil
	}
	for _, name := range []string{"gcc", "cc"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// cgoEnv is buildEnv with cgo on or off (the last CGO_ENABLED wins).
func cgoEnv(cgo bool) []string {
	if cgo {
		return append(buildEnv(), "CGO_ENABLED=1")
	}
	return buildEnv()
}

// cachedBinary finds a worker already built for the content: pure Go, or
// with cgo (only ever built when pure Go would not do).
func cachedBinary(binary func(cgo bool) (string, string)) (string, string, bool) {
	for _, cgo := range []bool{false, true} {
		hash, path := binary(cgo)
		if _, err := os.Stat(path); err == nil {
			now := time.Now()
			_ = os.Chtimes(path, now, now) // recently used: kept by prune
			return hash, path, true
		}
	}
	return "", "", false
}

// needsCgo says whether the module written in opt.Dir links a third-party
// package with cgo files and a C compiler is found. A project requiring
// no module but the SDK asks nothing of the go command.
func needsCgo(ctx context.Context, opt Options, man *Manifest) bool {
	if !thirdParty(man) {
		return false
	}
	if _, ok := cCompiler(); !ok {
		return false
	}
	cmd := exec.CommandContext(ctx, opt.Tool.Go, "list", "-e", "-deps", "-f", "{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}", ".")
	cmd.Dir = opt.Dir
	cmd.Env = cgoEnv(true)
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) != ""
}

// thirdParty says whether the manifest requires a module besides the SDK.
func thirdParty(man *Manifest) bool {
	if man == nil {
		return false
	}
	for _, r := range man.Requires {
		if r.Mod.Path != strataModule {
			return true
		}
	}
	return false
}
