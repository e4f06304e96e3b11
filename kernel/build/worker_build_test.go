package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/golden"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// runGolden builds one golden example alone and runs it compiled.
func runGolden(t *testing.T, tc *Toolchain, name string, allow ...string) (*Worker, *protocol.Result, string) {
	t.Helper()
	req, inputs, _, err := golden.Request(filepath.Join("../testdata/golden", name+".go"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := Build(context.Background(), Options{Dir: t.TempDir(), Tool: tc, Allow: allow}, []Block{{File: req.Filename, Source: req.Source}})
	if err != nil {
		t.Fatal(err)
	}
	pools := NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	ex, release := pools.Acquire(w)
	defer release()
	h := &collect{}
	res, out, err := ex.Exec(context.Background(), req, inputs, h)
	if err != nil {
		t.Fatal(err)
	}
	return w, res, render(res, out)
}

// Errors in compiled mode point at the block's own file, line and column.
func TestCompiledErrorPositions(t *testing.T) {
	tc := toolchain(t)
	cases := []struct {
		name, kind string
		line, col  int
		msg        string
	}{
		{"type_error", "compile", 11, 6, "declared and not used: n"},
		{"syntax_error", "compile", 0, 0, ""},
		{"bad_signature", "compile", 0, 0, "contract"},
		{"panic_runtime", "panic", 11, 0, "assignment to entry in nil map"},
		{"panic_explicit", "panic", 0, 0, "panic:"},
		{"panic_goroutine", "panic", 16, 0, "index out of range"},
		{"os_exit", "panic", 10, 0, "os.Exit(3)"},
		{"refused_exec", "refused", 0, 0, "os/exec"},
		{"unknown_import", "refused", 4, 2, "github.com/google/uuid"},
		{"blocked_call", "timeout", 0, 0, "timed out after 1s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, res, _ := runGolden(t, tc, c.name)
			e := res.Error
			if e == nil {
				t.Fatalf("no error, want %s", c.kind)
			}
			if string(e.Kind) != c.kind || (c.line > 0 && e.Line != c.line) || (c.col > 0 && e.Column != c.col) || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %s at %s:%d:%d: %s\nwant %s at %d:%d containing %q", e.Kind, e.File, e.Line, e.Column, e.Message, c.kind, c.line, c.col, c.msg)
			}
			if e.File != c.name+".go" {
				t.Errorf("error names file %q, want %s.go", e.File, c.name)
			}
		})
	}
}

// A block reading stdin reads nothing (not the protocol); what it prints to
// os.Stdout, fd 1 included, is the run's stdout.
func TestCompiledStdio(t *testing.T) {
	tc := toolchain(t)
	src := `package stdio

import (
	"bufio"
	"fmt"
	"os"
	"syscall"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	var s string
	n, err := fmt.Scanln(&s)
	fmt.Println("scanned", n, err != nil)
	_, err = bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Fprintln(os.Stdout, "read:", err)
	syscall.Write(1, []byte("raw fd 1\n"))
	t := sdk.NewTable(sdk.String("x"))
	t.Append("ok")
	return t, nil
}
`
	dir := t.TempDir()
	w, err := Build(context.Background(), Options{Dir: dir, Tool: tc, Allow: []string{"syscall"}}, []Block{{File: "blocks/stdio/stdio.go", Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Failed["blocks/stdio/stdio.go"] != nil {
		t.Fatal(w.Failed["blocks/stdio/stdio.go"])
	}
	pools := NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	ex, release := pools.Acquire(w)
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := &protocol.ExecRequest{Filename: "blocks/stdio/stdio.go", Source: src, Allow: []string{"syscall"}, Timeout: 5 * time.Second}
	for i := 0; i < 2; i++ { // the second run shows the kernel survived and stdout stays per run
		res, out, err := ex.Exec(ctx, req, nil, &collect{})
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %v", i, err, res.Error)
		}
		want := "scanned 0 true\nread: EOF\nraw fd 1\n"
		if res.Stdout != want || out.Len() != 1 {
			t.Errorf("run %d: stdout %q, want %q", i, res.Stdout, want)
		}
	}
	// Changed source is refused by the old binary instead of run stale.
	req.Source += "\n// changed\n"
	res, _, _ := ex.Exec(ctx, req, nil, &collect{})
	if res.Error == nil || !strings.Contains(res.Error.Message, "another version") {
		t.Errorf("stale source: %+v", res.Error)
	}
}

// The binary is reused while nothing changed, and a changed block makes a
// new one; builds of one folder are serialized.
func TestBuildCache(t *testing.T) {
	tc := toolchain(t)
	dir := t.TempDir()
	src := "package a\n\nimport \"github.com/stratahq/strata/blocks/sdk\"\n\nfunc Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(), nil }\n"
	blocks := []Block{{File: "blocks/a/a.go", Source: src}, {File: "blocks/b/b.go", Source: strings.Replace(src, "package a", "package b", 1)}}
	w1, err := Build(context.Background(), Options{Dir: dir, Tool: tc}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := Build(context.Background(), Options{Dir: dir, Tool: tc}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	if !w2.Cached || w2.Path != w1.Path {
		t.Errorf("unchanged sources rebuilt: %+v then %+v", w1, w2)
	}
	blocks[1].Source += "// v2\n"
	w3, err := Build(context.Background(), Options{Dir: dir, Tool: tc}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	if w3.Cached || w3.Path == w1.Path {
		t.Errorf("changed block not rebuilt: %+v", w3)
	}
	if _, err := os.Stat(w1.Path); err != nil {
		t.Errorf("older binary was removed while recent: %v", err)
	}
}
