package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestExecEngines: `strata exec` through the real binary runs a block the
// interpreter cannot run (range over a function) compiled by default and
// says why, runs an ordinary block interpreted, runs it compiled on
// --engine compiled with the same output, and without a toolchain keeps
// the interpreter's refusal.
func TestExecEngines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	dir := t.TempDir()
	iterBlock := filepath.Join(dir, "evens.go")
	plainBlock := filepath.Join(dir, "squares.go")
	if err := os.WriteFile(iterBlock, []byte(`package evens

import (
	"fmt"
	"iter"

	"github.com/stratahq/strata/blocks/sdk"
)

func evens(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i += 2 {
			if !yield(i) {
				return
			}
		}
	}
}

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	for v := range evens(7) {
		fmt.Println("even", v)
		t.Append(v)
	}
	return t, nil
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plainBlock, []byte(`package squares

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.Int64("sq"))
	for i := 1; i <= 4; i++ {
		t.Append(i, i*i)
	}
	return t, nil
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(env []string, wantOK bool, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if (err == nil) != wantOK {
			t.Fatalf("strata %s: %v (want ok %v)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, wantOK, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	want := func(out, s string) {
		t.Helper()
		if !strings.Contains(out, s) {
			t.Fatalf("output lacks %q:\n%s", s, out)
		}
	}

	out, errOut := run(nil, true, "exec", iterBlock, "--format", "csv")
	want(errOut, `engine compiled: package "iter" (Go 1.23)`)
	if want := "n\n0\n2\n4\n6\n"; out != want {
		t.Fatalf("compiled exec printed %q, want %q", out, want)
	}
	var doc struct {
		Engine string `json:"engine"`
		Stdout string `json:"stdout"`
		Rows   [][]any
	}
	out, _ = run(nil, true, "exec", iterBlock, "--format", "json")
	if err := json.Unmarshal([]byte(out), &doc); err != nil || !strings.HasPrefix(doc.Engine, `compiled: package "iter"`) || len(doc.Rows) != 4 || doc.Stdout != "even 0\neven 2\neven 4\neven 6\n" {
		t.Fatalf("json: %v %+v\n%s", err, doc, out)
	}

	interp, errOut := run(nil, true, "exec", plainBlock, "--format", "csv")
	want(errOut, "")
	compiled, _ := run(nil, true, "exec", plainBlock, "--format", "csv", "--engine", "compiled")
	if interp != compiled || !strings.Contains(interp, "4,16") {
		t.Fatalf("interpreted %q and compiled %q differ", interp, compiled)
	}
	_, errOut = run(nil, true, "exec", plainBlock)
	want(errOut, "(engine interp)")
	_, errOut = run(nil, true, "exec", plainBlock, "--engine", "compiled")
	want(errOut, "(engine compiled)")

	// No toolchain: the refusal stands, saying what needs compiled.
	_, errOut = run([]string{"STRATA_GO=off"}, false, "exec", iterBlock)
	want(errOut, `needs compiled: package "iter"`)
	want(errOut, "no Go toolchain")
	_, errOut = run([]string{"STRATA_GO=off"}, false, "exec", plainBlock, "--engine", "compiled")
	want(errOut, "--engine compiled")
	_, errOut = run(nil, false, "exec", plainBlock, "--engine", "fast")
	want(errOut, `engine "fast"`)
}
