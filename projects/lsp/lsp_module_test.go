package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/modtest"
)

const moduleBlock = `package b

import (
	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	_ = uuid.
	return sdk.NewTable(), nil
}
`

// checkedBlock is valid syntax (a syntax error hides type errors) with one
// name the module does not have.
const checkedBlock = `package c

import (
	"github.com/google/uuid"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	_ = uuid.NoSuchThing
	return sdk.NewTable(), nil
}
`

// gopls in a cell of a project whose go.mod requires a module (offline, as
// the proxy runs it): completion lists the module's exported names, and a
// name the module lacks is reported at its line.
func TestGoplsCompletesAndChecksModule(t *testing.T) {
	dir, uri := project(t)
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "kernel", "testdata", "modules", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "go.mod" {
			b = []byte(strings.Replace(string(b), "module modcorpus", "module lsptest", 1))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	modtest.Download(t, "go", dir)
	if err := os.WriteFile(filepath.Join(dir, "blocks", "b", "b.go"), []byte(moduleBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	checked := filepath.Join(dir, "blocks", "c", "c.go")
	if err := os.MkdirAll(filepath.Dir(checked), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(checked, []byte(checkedBlock), 0o644); err != nil {
		t.Fatal(err)
	}
	curi := FileURI(checked)
	p := New(dir, nil)
	defer p.Close()
	c := connect(t, p)
	c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": moduleBlock}})
	if got := c.completeAt(uri, 9, len("\t_ = uuid.")); !contains(got, "NewSHA1") {
		t.Fatalf("completion of `uuid.`: want NewSHA1 among %v", got)
	}
	// The diagnostics gopls publishes for the other file name the missing symbol.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": curi, "languageId": "go", "version": 1, "text": checkedBlock}})
	deadline := time.After(60 * time.Second)
	for {
		select {
		case b := <-c.in:
			var n struct {
				Method string `json:"method"`
				Params struct {
					URI         string `json:"uri"`
					Diagnostics []struct {
						Range struct {
							Start struct{ Line int } `json:"start"`
						} `json:"range"`
						Message string `json:"message"`
					} `json:"diagnostics"`
				} `json:"params"`
			}
			if json.Unmarshal(b, &n) != nil || n.Method != "textDocument/publishDiagnostics" || n.Params.URI != curi {
				continue
			}
			for _, d := range n.Params.Diagnostics {
				if d.Range.Start.Line == 9 && strings.Contains(d.Message, "NoSuchThing") {
					return
				}
			}
		case <-deadline:
			t.Fatal("no diagnostic naming uuid.NoSuchThing at line 10 within 60s")
		}
	}
}
