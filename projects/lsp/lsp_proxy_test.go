package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/scaffold"
)

const blockSource = `package b

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	_ = ctx.Partition.
	return sdk.
}
`

// testClient is a connection of the proxy driven like the browser does.
type testClient struct {
	t   testing.TB
	c   *Client
	in  chan []byte
	ids int
}

func connect(t testing.TB, p *Proxy) *testClient {
	tc := &testClient{t: t, in: make(chan []byte, 256)}
	tc.c = p.Connect(func(b []byte) { tc.in <- b })
	t.Cleanup(tc.c.Close)
	return tc
}

func (tc *testClient) notify(method string, params any) {
	tc.t.Helper()
	if err := tc.c.Handle(mustJSON(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})); err != nil {
		tc.t.Fatal(err)
	}
}

// request sends a request and waits for its reply, skipping notifications.
func (tc *testClient) request(method string, params any) json.RawMessage {
	tc.t.Helper()
	tc.ids++
	id := tc.ids
	if err := tc.c.Handle(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})); err != nil {
		tc.t.Fatal(err)
	}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case b := <-tc.in:
			var r struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(b, &r); err != nil {
				tc.t.Fatalf("reply is not JSON: %s", b)
			}
			if r.Method != "" || r.ID == nil || *r.ID != id {
				continue
			}
			if r.Error != nil {
				tc.t.Fatalf("%s: error from gopls: %s", method, r.Error.Message)
			}
			return r.Result
		case <-deadline:
			tc.t.Fatalf("%s: no reply within 60s", method)
		}
	}
}

// project writes a Strata project (go.mod and SDK copy as `strata init`
// does) with one Go block, and returns the block's file URI.
func project(t testing.TB) (dir, uri string) {
	if _, err := Find(); err != nil {
		t.Skipf("%v (.ci/run installs it)", err)
	}
	dir = t.TempDir()
	if err := scaffold.WriteGoModule(dir, "lsptest"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "blocks", "b", "b.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(blockSource), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, FileURI(file)
}

func (tc *testClient) open(uri string) {
	tc.request("initialize", map[string]any{"capabilities": map[string]any{}})
	tc.notify("initialized", map[string]any{})
	tc.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": blockSource}})
}

// complete asks for completions at the end of the line that ends with prefix.
func (tc *testClient) complete(uri, prefix string) []string {
	tc.t.Helper()
	line, col := -1, 0
	for i, l := range strings.Split(blockSource, "\n") {
		if strings.HasSuffix(l, prefix) {
			line, col = i, len(l)
		}
	}
	return tc.completeAt(uri, line, col)
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

func TestCompletionOfSDKFromRealGopls(t *testing.T) {
	dir, uri := project(t)
	p := New(dir, nil)
	defer p.Close()
	a := connect(t, p)
	a.open(uri)
	if got := a.complete(uri, "return sdk."); !contains(got, "NewTable") {
		t.Fatalf("completion of `sdk.` in %s: want NewTable among %v", uri, got)
	}
	// A second connection shares the same gopls: its initialize is answered
	// from the first handshake and its ids do not collide with the first's.
	b := connect(t, p)
	b.request("initialize", map[string]any{"capabilities": map[string]any{}})
	if got := b.complete(uri, "ctx.Partition."); !contains(got, "Start") {
		t.Fatalf("completion of `ctx.Partition.` from a second connection: want Start among %v", got)
	}
	p.mu.Lock()
	running := p.proc != nil
	p.mu.Unlock()
	if !running {
		t.Fatal("gopls is not running after two connections")
	}
	p.Close()
	p.mu.Lock()
	stopped := p.proc == nil
	p.mu.Unlock()
	if !stopped {
		t.Fatal("gopls still running after Close")
	}
}

func TestMissingGoplsSaysHowToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOPATH", t.TempDir())
	p := New(t.TempDir(), nil)
	if err := p.Available(); err == nil || !strings.Contains(err.Error(), InstallCommand) {
		t.Fatalf("Available without gopls: want an error naming %q, got %v", InstallCommand, err)
	}
	tc := connect(t, p)
	if err := tc.c.Handle([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	if b := <-tc.in; !strings.Contains(string(b), InstallCommand) {
		t.Fatalf("initialize without gopls: want an error naming the install command, got %s", b)
	}
}

// BenchmarkCompletionCold: start gopls, handshake, open a block, complete
// `sdk.` — what the first completion in a fresh server costs.
func BenchmarkCompletionCold(b *testing.B) {
	dir, uri := project(b)
	for b.Loop() {
		p := New(dir, nil)
		tc := connect(b, p)
		tc.open(uri)
		if got := tc.complete(uri, "return sdk."); !contains(got, "NewTable") {
			b.Fatalf("no NewTable in %v", got)
		}
		tc.c.Close()
		p.Close()
	}
}

// BenchmarkCompletionWarm: completion of `sdk.` on a running gopls.
func BenchmarkCompletionWarm(b *testing.B) {
	dir, uri := project(b)
	p := New(dir, nil)
	defer p.Close()
	tc := connect(b, p)
	tc.open(uri)
	tc.complete(uri, "return sdk.")
	for b.Loop() {
		if got := tc.complete(uri, "return sdk."); !contains(got, "NewTable") {
			b.Fatalf("no NewTable in %v", got)
		}
	}
}

func (tc *testClient) completeAt(uri string, line, col int) []string {
	tc.t.Helper()
	res := tc.request("textDocument/completion", map[string]any{
		"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": col}})
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	if err := json.Unmarshal(res, &list); err != nil {
		tc.t.Fatalf("completion reply %s: %v", res, err)
	}
	labels := make([]string, len(list.Items))
	for i, it := range list.Items {
		labels[i] = it.Label
	}
	return labels
}

func insertAt(line int, text string, version int, uri string) map[string]any {
	pos := map[string]any{"line": line, "character": 0}
	return map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": text}}}
}

// The same block open in two tabs: each tab's edits apply to its own text,
// completion answers at each tab's own positions, and one tab closing the
// file leaves the other's unsaved text in place. (gopls holds one document
// per file; before, both tabs' incremental edits landed on it, and one
// tab's close dropped the other's text.)
func TestTwoTabsOnOneFile(t *testing.T) {
	dir, uri := project(t)
	p := New(dir, nil)
	defer p.Close()
	a := connect(t, p)
	a.open(uri)
	b := connect(t, p)
	b.open(uri)
	// Tab a adds two lines above `_ = ctx.Partition.` (line 5).
	a.notify("textDocument/didChange", insertAt(5, "\tvar extra = 1\n\t_ = extra\n", 2, uri))
	if got := a.completeAt(uri, 7, len("\t_ = ctx.Partition.")); !contains(got, "Start") {
		t.Fatalf("tab a at its line 7: want Start among %v", got)
	}
	// Tab b never saw those lines: its line 5 is still `_ = ctx.Partition.`.
	if got := b.completeAt(uri, 5, len("\t_ = ctx.Partition.")); !contains(got, "Start") {
		t.Fatalf("tab b at its line 5: want Start among %v", got)
	}
	// Tab b's own unsaved edit, then tab a goes away.
	b.notify("textDocument/didChange", insertAt(5, "\tp := ctx.Partition\n\t_ = p.\n", 2, uri))
	a.c.Close()
	if got := b.completeAt(uri, 6, len("\t_ = p.")); !contains(got, "Start") {
		t.Fatalf("tab b after tab a closed: want Start among %v (its unsaved text was dropped)", got)
	}
}

// A tab's $/cancelRequest cancels that tab's request, named by the proxy's
// id for it: before, the tab's own id went to gopls as it was, and there
// it named another request (here the other tab's, proxy id 2), which then
// failed with "request cancelled" though nobody had given up on it.
func TestCancelOfOneTabLeavesTheOthersRequest(t *testing.T) {
	dir, uri := project(t)
	p := New(dir, nil)
	defer p.Close()
	a := connect(t, p)
	a.open(uri) // gopls's initialize is the proxy's id 1
	b := connect(t, p)
	b.request("initialize", map[string]any{"capabilities": map[string]any{}})
	// Tab a's first completion (proxy id 2; gopls has yet to load the
	// package, so a cancel right behind it lands before the answer), then
	// tab b cancels its own id 2, a request it never sent.
	req := mustJSON(map[string]any{"jsonrpc": "2.0", "id": 40, "method": "textDocument/completion", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 5, "character": len("\t_ = ctx.Partition.")}}})
	if err := a.c.Handle(req); err != nil {
		t.Fatal(err)
	}
	b.notify("$/cancelRequest", map[string]any{"id": 2})
	deadline := time.After(60 * time.Second)
	for {
		select {
		case raw := <-a.in:
			var r struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(raw, &r) != nil || r.ID != 40 {
				continue
			}
			if r.Error != nil || !strings.Contains(string(r.Result), `"label":"Start"`) {
				t.Fatalf("tab a's completion after tab b's cancel: want Start, got %s", raw)
			}
			return
		case <-deadline:
			t.Fatal("tab a's completion: no reply within 60s")
		}
	}
}
