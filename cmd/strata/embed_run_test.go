package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

const embedBlock = `package sums

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/stratahq/strata/blocks/sdk"
)

//go:embed folder/*.hash
var hashes embed.FS

//go:embed "notes.txt"
var notes string

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	fmt.Print(notes)
	t := sdk.NewTable(sdk.String("name"), sdk.String("text"))
	names, err := fs.Glob(hashes, "folder/*.hash")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		b, err := hashes.ReadFile(n)
		if err != nil {
			return nil, err
		}
		t.Append(n, string(b))
	}
	return t, nil
}
`

// TestEmbedInBlockFolder: a block whose //go:embed patterns name files of
// its folder failed compiled ("pattern folder/*.hash: no matching files
// found": the build copied only the sources). Through the real binary,
// `strata run` (compiled) and `strata exec` carry the files; a changed
// file is a new build, not the cached binary.
func TestEmbedInBlockFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	bin := strataproc.Binary(t)
	proj := filepath.Join(t.TempDir(), "proj")
	if out, err := exec.Command(bin, "init", proj).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(proj, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("blocks/sums/sums.go", embedBlock)
	write("blocks/sums/folder/a.hash", "abc")
	write("blocks/sums/folder/b.hash", "def")
	write("blocks/sums/notes.txt", "embedded notes\n")
	write("pipelines/p.yaml", "partitions: {interval: day, start: 2024-01-01}\nblocks:\n  - id: sums\n")

	strata := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("strata %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	out := strata("run", proj, "p", "--partition", "2024-01-03", "--engine", "compiled")
	for _, want := range []string{"succeeded 2024-01-03        2 rows", "embedded notes"} {
		if !strings.Contains(out, want) {
			t.Errorf("run lacks %q:\n%s", want, out)
		}
	}
	out = strata("exec", filepath.Join(proj, "blocks", "sums", "sums.go"), "--format", "csv")
	if want := "name,text\nfolder/a.hash,abc\nfolder/b.hash,def\n"; !strings.Contains(out, want) {
		t.Errorf("exec printed %q, want %q in it", out, want)
	}
	write("blocks/sums/folder/b.hash", "changed")
	out = strata("exec", filepath.Join(proj, "blocks", "sums", "sums.go"), "--format", "csv")
	if !strings.Contains(out, "folder/b.hash,changed") {
		t.Errorf("after a change of an embedded file, exec printed %q", out)
	}
	// Interpreted, the block is routed to compiled with its reason.
	out = strata("exec", filepath.Join(proj, "blocks", "sums", "sums.go"), "--format", "csv")
	if !strings.Contains(out, `engine compiled: package "embed"`) {
		t.Errorf("exec's engine line: %q", out)
	}
}
