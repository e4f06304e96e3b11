package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestExecFaultRunsOnce: `strata exec` of a block that appends a line to a
// file, prints nothing, then hits a fault of the interpreter midway ran it
// again compiled (two lines). It runs once and says how to run it compiled.
func TestExecFaultRunsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "appended.txt")
	block := filepath.Join(dir, "faulty.go")
	if err := os.WriteFile(block, []byte(`package faulty

import (
	"os"

	"github.com/stratahq/strata/blocks/sdk"
)

func window(s []int, j int) []int {
	return s[1:j]
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	f, _ := os.OpenFile(`+"`"+log+"`"+`, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	f.WriteString("ran\n")
	f.Close()
	_ = window(make([]int, 2, 4), 5)
	return sdk.NewTable(sdk.Int64("n")), nil
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "exec", block)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatalf("exec succeeded; stderr:\n%s", stderr.String())
	}
	b, _ := os.ReadFile(log)
	if n := strings.Count(string(b), "ran\n"); n != 1 {
		t.Errorf("one exec appended %d lines, want 1; stderr:\n%s", n, stderr.String())
	}
	for _, want := range []string{block + ":10:", "failed running this valid Go", "run it with --engine compiled", "(engine interp)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestExecTimeoutOffersCompiled: an interpreted exec that times out says
// compiled would be many times faster, and how to ask for it.
func TestExecTimeoutOffersCompiled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	block := filepath.Join(t.TempDir(), "spin.go")
	if err := os.WriteFile(block, []byte("package spin\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "exec", block, "--timeout", "1s")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil {
		t.Fatal("an endless loop succeeded")
	}
	for _, want := range []string{"timed out after 1s", "many times slower than compiled", "run it with --engine compiled", "(timeout)"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
