package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stratahq/strata/projects/lsp"
)

func (e *env) lspURL() string { return "ws" + strings.TrimPrefix(e.url, "http") + "/api/v1/lsp" }

func TestLSPWebsocketChecksTokenAndOrigin(t *testing.T) {
	if _, err := lsp.Find(); err != nil {
		t.Skipf("%v (.ci/run installs it)", err)
	}
	e := newEnv(t)
	if _, resp, err := websocket.DefaultDialer.Dial(e.lspURL(), nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("lsp websocket without a token: want 401, got %v %v", resp, err)
	}
	hdr := authHeader()
	hdr.Set("Origin", "http://evil.example")
	if _, resp, err := websocket.DefaultDialer.Dial(e.lspURL(), hdr); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("lsp websocket from another origin: want 403, got %v %v", resp, err)
	}
}

// The browser's journey over the real route: initialize, open a demo block
// by its real file URI, ask for completions of `ctx.Partition.`.
func TestLSPWebsocketCompletesABlock(t *testing.T) {
	if _, err := lsp.Find(); err != nil {
		t.Skipf("%v (.ci/run installs it)", err)
	}
	e := newEnv(t)
	var info struct {
		RootURI string `json:"root_uri"`
	}
	e.call("GET", "/api/v1/lsp", nil, http.StatusOK, &info)
	if info.RootURI != lsp.FileURI(e.dir) {
		t.Fatalf("root_uri: want %s, got %s", lsp.FileURI(e.dir), info.RootURI)
	}
	conn, _, err := websocket.DefaultDialer.Dial(e.lspURL(), authHeader())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	src, err := os.ReadFile(filepath.Join(e.dir, "blocks", "raw_orders", "raw_orders.go"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "\tp := ctx.Partition\n", "\tp := ctx.Partition\n\t_ = ctx.Partition.\n", 1)
	line := strings.Count(text[:strings.Index(text, "_ = ctx.Partition.")], "\n")
	uri := info.RootURI + "/blocks/raw_orders/raw_orders.go"
	send := func(v any) {
		if err := conn.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	await := func(id int) json.RawMessage {
		_ = conn.SetReadDeadline(time.Now().Add(60 * time.Second))
		for {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := conn.ReadJSON(&m); err != nil {
				t.Fatalf("waiting for reply %d: %v", id, err)
			}
			if m.Method == "" && m.ID != nil && *m.ID == id {
				if len(m.Error) > 0 {
					t.Fatalf("reply %d is an error: %s", id, m.Error)
				}
				return m.Result
			}
		}
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"rootUri": "file:///elsewhere", "capabilities": map[string]any{}}})
	await(1)
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": text}}})
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": len("\t_ = ctx.Partition.")}}})
	res := await(2)
	if !strings.Contains(string(res), `"label":"Start"`) {
		t.Fatalf("completion of ctx.Partition. through /api/v1/lsp: want Start, got %.500s", res)
	}
}

func TestLSPWithoutGoplsIs503WithInstallCommand(t *testing.T) {
	e := newEnv(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOPATH", t.TempDir())
	resp, body := e.request("GET", "/api/v1/lsp", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), lsp.InstallCommand) {
		t.Fatalf("GET /api/v1/lsp without gopls: want 503 naming %q, got %d %s", lsp.InstallCommand, resp.StatusCode, body)
	}
}
