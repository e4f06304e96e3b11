package projectkernel

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/stratahq/strata/kernel/build"
)

// cgoGaps are the imports that are, or depend on, a third-party package
// with C code. The kernel is built without cgo, and such a package's
// pure-Go fallback is at best a stub (go-sqlite3's fails every call), so
// it is a gap: the block runs compiled, where kernel/build turns cgo on.
// The go command is asked with cgo on, to see the C files; a failure of
// the question leaves the imports to the extractor, which reports them.
func cgoGaps(ctx context.Context, opt Options, imports []string) map[string]string {
	gaps := map[string]string{}
	if len(imports) == 0 {
		return gaps
	}
	list := func(format string, flags ...string) []string {
		args := append(append(append([]string{"list", "-e"}, flags...), "-f", format), imports...)
		cmd := exec.CommandContext(ctx, opt.Tool.Go, args...)
		cmd.Dir = opt.Dir
		cmd.Env = append(build.Env(), "CGO_ENABLED=1") // the last one wins
		out, err := cmd.Output()
		if err != nil {
			return nil
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n")
	}
	withC := map[string]bool{}
	for _, p := range list("{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}", "-deps") {
		if p != "" {
			withC[p] = true
		}
	}
	if len(withC) == 0 {
		return gaps
	}
	for _, line := range list("{{.ImportPath}}{{range .Deps}} {{.}}{{end}}") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		for _, dep := range f {
			if withC[dep] {
				gaps[f[0]] = fmt.Sprintf("package %s is not in the project kernel (%s has C code, and the kernel is built without cgo): it runs compiled", f[0], dep)
				break
			}
		}
	}
	return gaps
}
