package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Toolchain is a local Go installation.
type Toolchain struct {
	Go      string // path of the go command
	Version string // e.g. "go1.26.8"
}

var (
	toolMu    sync.Mutex
	toolFound = map[string]*Toolchain{}
)

// ErrNoToolchain means no Go toolchain was found: blocks run interpreted.
var ErrNoToolchain = errors.New("no Go toolchain found (install Go from https://go.dev/dl and put `go` on PATH, or set STRATA_GO to its path, for native speed)")

// FindToolchain looks for the go command: $STRATA_GO, then PATH, then
// $GOROOT/bin. STRATA_GO=off disables compiled mode. The answer is cached.
func FindToolchain() (*Toolchain, error) {
	cand := os.Getenv("STRATA_GO")
	if cand == "off" {
		return nil, ErrNoToolchain
	}
	if cand == "" {
		if p, err := exec.LookPath("go"); err == nil {
			cand = p
		} else if root := os.Getenv("GOROOT"); root != "" {
			cand = filepath.Join(root, "bin", "go")
		} else {
			return nil, ErrNoToolchain
		}
	}
	toolMu.Lock()
	defer toolMu.Unlock()
	if t, ok := toolFound[cand]; ok {
		if t == nil {
			return nil, ErrNoToolchain
		}
		return t, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cand, "env", "GOVERSION")
	cmd.Env = buildEnv()
	out, err := cmd.Output()
	if err != nil {
		toolFound[cand] = nil
		return nil, fmt.Errorf("%w: %s env GOVERSION: %v", ErrNoToolchain, cand, err)
	}
	t := &Toolchain{Go: cand, Version: strings.TrimSpace(string(out))}
	if !strings.HasPrefix(t.Version, "go1.") {
		toolFound[cand] = nil
		return nil, fmt.Errorf("%w: %s reports version %q", ErrNoToolchain, cand, t.Version)
	}
	toolFound[cand] = t
	return t, nil
}

// goLine is the version for the generated go.mod's go line ("1.26.8"); a
// development toolchain ("go1.27-devel …") is reduced to its language version.
func (t *Toolchain) goLine() string {
	v := strings.TrimPrefix(t.Version, "go")
	if i := strings.IndexFunc(v, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSuffix(v, ".")
}

// buildEnv is the environment of every go command a build runs: offline,
// the local toolchain only, no workspace, and pure Go (no C compiler needed;
// a worker linking a package with C code turns cgo on, see cgo_build.go).
// GOFLAGS replaces the user's (a -mod=vendor or -tags there would change
// what builds, and any change of flags recompiles the standard library).
// GOSUMDB=off: the checksum database is on the network; the project's
// go.sum, copied into the build, still pins every module it lists, and a
// module it does not list (the interpreter a project kernel links) is
// taken from the module cache, which verified it when it was downloaded.
func buildEnv() []string {
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPROXY", "GOWORK", "GOTOOLCHAIN", "GOFLAGS", "CGO_ENABLED", "GOOS", "GOARCH", "GO111MODULE", "GOSUMDB":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "CGO_ENABLED=0", "GO111MODULE=on",
		"GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
}
