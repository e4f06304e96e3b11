package projectkernel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/stratahq/strata/kernel/build"
)

// Add runs `go get MODULE@VERSION …` in the project folder dir, as a user
// would there: the project's go.mod and go.sum gain the requirements, and
// the modules land in the module cache. It is the one step besides
// Download that may use the network (the user's GOPROXY).
func Add(ctx context.Context, tool *build.Toolchain, dir string, modules []string) (string, error) {
	for _, m := range modules {
		if !strings.Contains(m, "@") {
			return "", fmt.Errorf("module %q: want MODULE@VERSION (e.g. github.com/google/uuid@v1.6.0, or @latest)", m)
		}
	}
	return online(ctx, tool, dir, append([]string{"get"}, modules...)...)
}

// Download fills the module cache with every module the project's go.mod
// needs, and the interpreter a project kernel links, so builds and runs
// work offline afterwards.
func Download(ctx context.Context, tool *build.Toolchain, dir string) (string, error) {
	out, err := online(ctx, tool, dir, "mod", "download")
	if err != nil {
		return out, err
	}
	more, err := online(ctx, tool, dir, "mod", "download", yaegiModule+"@"+yaegiVersion())
	return out + more, err
}

// online runs the go command in dir with the user's environment (proxy
// and checksum database as configured), modules mode, no workspace.
func online(ctx context.Context, tool *build.Toolchain, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, tool.Go, args...)
	cmd.Dir = dir
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "GOFLAGS" && k != "GOWORK" && k != "GO111MODULE" {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GOFLAGS=-mod=mod", "GOWORK=off", "GO111MODULE=on")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}
