package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

const uuidExecBlock = `package ids

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Println(uuid.NewSHA1(uuid.NameSpaceURL, []byte("https://example.com/orders")))
	return sdk.NewTable(), nil
}
`

// strataCmd runs the binary with extra environment and returns its output
// and exit code.
func strataCmd(t *testing.T, bin string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// The module workflow through the binary: strata mod add puts a module in
// the project's go.mod; a block importing it runs compiled by default and
// in the project kernel with --engine interp, printing what go run prints;
// without a toolchain it is refused saying what to install.
func TestModAddAndExecModuleBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(err)
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	if out, code := strataCmd(t, bin, nil, "init", dir); code != 0 {
		t.Fatal(out)
	}
	if out, code := strataCmd(t, bin, nil, "mod", "add", dir, "github.com/google/uuid@v1.6.0"); code != 0 {
		t.Fatalf("mod add: %s", out)
	}
	if gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(gomod), "github.com/google/uuid v1.6.0") {
		t.Fatalf("go.mod after mod add:\n%s", gomod)
	}
	if out, code := strataCmd(t, bin, nil, "mod", "download", dir); code != 0 {
		t.Fatalf("mod download: %s", out)
	}
	block := filepath.Join(dir, "blocks", "ids", "ids.go")
	if err := os.MkdirAll(filepath.Dir(block), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(block, []byte(uuidExecBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "e4f823ab-1fb9-5d39-93b4-bfc09f8192cf" // go run of the same program
	offline := []string{"GOPROXY=off"}
	for _, engine := range []string{"", "interp"} {
		args := []string{"exec", block, "--format", "json"}
		if engine != "" {
			args = append(args, "--engine", engine)
		}
		out, code := strataCmd(t, bin, offline, args...)
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("exec --engine %q: exit %d\n%s", engine, code, out)
		}
	}
	// A pipeline run: compiled by default, the project kernel with
	// --engine interp.
	pipeline := "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: ids\n"
	if err := os.WriteFile(filepath.Join(dir, "pipelines", "ids.yaml"), []byte(pipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"compiled", "interp"} {
		out, code := strataCmd(t, bin, offline, "run", dir, "ids", "--partition", "2024-03-10", "--engine", engine)
		if code != 0 || !strings.Contains(out, "succeeded") || !strings.Contains(out, want) {
			t.Fatalf("run --engine %s: exit %d\n%s", engine, code, out)
		}
	}
	out, code := strataCmd(t, bin, []string{"STRATA_GO=off"}, "exec", block)
	if code == 0 || !strings.Contains(out, "need the Go toolchain") || !strings.Contains(out, "go.dev/dl") {
		t.Fatalf("without a toolchain: exit %d\n%s", code, out)
	}
}

// A project made by strata init, and the demo, run with no module added
// and nothing reachable: an empty module cache and no proxy.
func TestInitProjectsRunOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	env := []string{"GOPROXY=off", "GOMODCACHE=" + filepath.Join(t.TempDir(), "empty-modcache")}
	if out, code := strataCmd(t, bin, env, "init", dir, "--demo"); code != 0 {
		t.Fatal(out)
	}
	out, code := strataCmd(t, bin, env, "run", dir, "clv", "--partition", "2024-03-10")
	if code != 0 || !strings.Contains(out, "succeeded") {
		t.Fatalf("demo run offline: exit %d\n%s", code, out)
	}
}
