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

// The shop demo lands with its go.mod and Go files under their real names
// and vets against pgx from the module cache (GOPROXY=off: it is there when
// `go mod download` ran; skipped otherwise). An unknown demo is refused.
func TestShopDemoVets(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain")
	}
	dir := filepath.Join(t.TempDir(), "shop")
	if err := InitDemo(dir, "shop"); err != nil {
		t.Fatal(err)
	}
	var tmpl []string
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmpl") {
			tmpl = append(tmpl, p)
		}
		return nil
	})
	if len(tmpl) > 0 {
		t.Fatalf("template names left: %v", tmpl)
	}
	for _, f := range []string{"go.mod", "go.sum", "seed.sql", "blocks/orders/orders.go", "pipelines/shop.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	dl := exec.Command("go", "mod", "download", "github.com/jackc/pgx/v5")
	dl.Dir = dir
	dl.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := dl.CombinedOutput(); err != nil {
		t.Skipf("pgx is not in the module cache (strata mod download fills it): %s", out)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in the shop demo: %v\n%s", err, out)
	}
	if err := InitDemo(filepath.Join(t.TempDir(), "x"), "bank"); err == nil || !strings.Contains(err.Error(), "clv, shop") {
		t.Fatalf("unknown demo: %v", err)
	}
}
