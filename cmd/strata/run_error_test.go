package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestRunErrorPosition: `strata run` printed a block's compile error as
// "… (line 15)"; it names file, line and column as the compiler does
// (blocks/clv/clv.go:15:66: …), compiled and interpreted alike.
func TestRunErrorPosition(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	if out, err := exec.Command(bin, "init", demo, "--demo").CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	file := filepath.Join(demo, "blocks", "clv", "clv.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	good := `margin, err := strconv.ParseFloat(ctx.Var("margin", "0.3"), 64)`
	if !strings.Contains(string(src), good) {
		t.Fatalf("the demo's clv.go changed: no %q", good)
	}
	bad := strings.Replace(string(src), good, `margin, err := strconv.ParseFloat(ctx.Var("margin", "0.3"), 64, 1)`, 1)
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, eng := range []string{"compiled", "interp"} {
		out, err := exec.Command(bin, "run", demo, "clv", "--partition", "2024-03-10", "--engine", eng).CombinedOutput()
		if err == nil {
			t.Fatalf("--engine %s: the run succeeded\n%s", eng, out)
		}
		if want := "blocks/clv/clv.go:15:66: too many arguments in call to strconv.ParseFloat"; !strings.Contains(string(out), want) {
			t.Errorf("--engine %s: output lacks %q:\n%s", eng, want, out)
		}
		if strings.Contains(string(out), "(line 15)") {
			t.Errorf("--engine %s: the position is still a trailing (line 15):\n%s", eng, out)
		}
	}
}
