package scaffold

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The demo project type-checks with the real Go toolchain, offline.
func TestDemoVetsOffline(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	dir := filepath.Join(t.TempDir(), "demo")
	if err := Init(dir, true); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in the demo project: %v\n%s", err, out)
	}
	if err := Init(dir, true); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("init over a project: %v", err)
	}
}
