package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestExecMultiFileBlock: `strata exec` runs a block's folder as one
// package (helpers in a second file, a _test.go file ignored), on both
// engines with the same output, whether given the folder or one of its
// files; a block whose helper file needs compiled runs compiled; an error
// in a helper file is reported at that file's line.
func TestExecMultiFileBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	orders := filepath.Join(root, "orders")
	write(filepath.Join(orders, "orders.go"), `package orders

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("item"), sdk.Float64("total"))
	for _, o := range sampleOrders() {
		fmt.Println(describe(o))
		t.Append(o.Item, total(o))
	}
	return t, nil
}
`)
	write(filepath.Join(orders, "helpers.go"), `package orders

import "fmt"

type order struct {
	Item  string
	Qty   int
	Price float64
}

func sampleOrders() []order { return []order{{"apple", 3, 0.5}, {"pear", 2, 0.75}} }

func total(o order) float64 { return float64(o.Qty) * o.Price }

func describe(o order) string { return fmt.Sprintf("%d x %s", o.Qty, o.Item) }
`)
	write(filepath.Join(orders, "orders_test.go"), "package orders\n\nnot Go: a _test.go file is not part of the block\n")

	// The entry is found by its Load when the folder has no <folder>.go.
	evens := filepath.Join(root, "evens")
	write(filepath.Join(evens, "load.go"), `package evens

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"))
	for v := range upTo(7) {
		t.Append(v)
	}
	return t, nil
}
`)
	write(filepath.Join(evens, "seq.go"), `package evens

import "iter"

func upTo(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i += 2 {
			if !yield(i) {
				return
			}
		}
	}
}
`)
	broken := filepath.Join(root, "broken")
	write(filepath.Join(broken, "broken.go"), `package broken

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	return sdk.NewTable(sdk.Int64("n")), check(0)
}
`)
	write(filepath.Join(broken, "check.go"), `package broken

import "fmt"

func check(n int) error {
	if n == 0 {
		panic(fmt.Sprintf("bad n %d", n))
	}
	return nil
}
`)

	// A loose file runs alone, even beside a file of the same package.
	loose := filepath.Join(root, "loose")
	for _, name := range []string{"a", "b"} {
		write(filepath.Join(loose, name+".go"), "package loose\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) {\n\treturn sdk.NewTable(sdk.String(\""+name+"\")), nil\n}\n")
	}

	run := func(wantOK bool, args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if (err == nil) != wantOK {
			t.Fatalf("strata %s: %v (want ok %v)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, wantOK, stdout.String(), stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	const wantCSV = "item,total\napple,1.5\npear,1.5\n"
	for _, args := range [][]string{
		{"exec", orders, "--format", "csv"},
		{"exec", filepath.Join(orders, "orders.go"), "--format", "csv"},
		{"exec", orders, "--format", "csv", "--engine", "compiled"},
	} {
		out, errOut := run(true, args...)
		if out != wantCSV {
			t.Errorf("strata %s printed %q, want %q (stderr %s)", strings.Join(args, " "), out, wantCSV, errOut)
		}
	}
	out, errOut := run(true, "exec", orders)
	if !strings.Contains(out, "3 x apple\n2 x pear\n") || !strings.Contains(errOut, "(engine interp)") {
		t.Errorf("table run: stdout %q stderr %q", out, errOut)
	}

	if out, _ := run(true, "exec", filepath.Join(loose, "b.go"), "--format", "csv"); out != "b\n" {
		t.Errorf("a loose file: %q, want its own table", out)
	}
	_, errOut = run(false, "exec", loose)
	if !strings.Contains(errOut, "2 declare an entry") {
		t.Errorf("a folder with two entries: %s", errOut)
	}

	out, errOut = run(true, "exec", evens, "--format", "csv")
	if out != "n\n0\n2\n4\n6\n" || !strings.Contains(errOut, `engine compiled: package "iter"`) {
		t.Errorf("helper needing compiled: stdout %q stderr %q", out, errOut)
	}

	_, errOut = run(false, "exec", broken)
	if !strings.Contains(errOut, filepath.Join(broken, "check.go")+":7:3: panic: bad n 0") || !strings.Contains(errOut, "(engine interp)") {
		t.Errorf("the panic is not reported at check.go:7:3:\n%s", errOut)
	}
	// Compiled workers place a panic at the innermost frame in the entry
	// file (kernel/native's panicLine), here the call in broken.go.
	_, errOut = run(false, "exec", broken, "--engine", "compiled")
	if !strings.Contains(errOut, "panic: bad n 0") {
		t.Errorf("compiled: %s", errOut)
	}
}
