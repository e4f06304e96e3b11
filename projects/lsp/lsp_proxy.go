// Package lsp runs one gopls per project, started on first use and stopped
// with the server, and shares it between the browser's editor connections.
// Each connection speaks JSON-RPC (one LSP message per call, no framing);
// the proxy speaks Content-Length framing on gopls's stdio, renumbers request
// ids so connections cannot collide, answers gopls's own requests to the
// client itself and answers a connection's initialize from the one real
// handshake, so a second tab does not start a second gopls.
package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Version is the gopls this proxy is tested with (the newest that builds on Go 1.26).
const Version = "v0.23.0"

// InstallCommand installs the pinned gopls.
const InstallCommand = "go install golang.org/x/tools/gopls@" + Version

// ErrNotInstalled: no gopls on PATH nor in $(go env GOPATH)/bin.
var ErrNotInstalled = errors.New("gopls is not installed: run `" + InstallCommand + "` (it lands in $(go env GOPATH)/bin) and reload the page")

// Find returns the gopls binary: on PATH, else in GOPATH/bin, where
// `go install` puts it.
func Find() (string, error) {
	if p, err := exec.LookPath("gopls"); err == nil {
		return p, nil
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "gopls")
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", ErrNotInstalled
}

// FileURI is the file:// URI of an absolute path, as gopls names documents.
func FileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// message is the part of a JSON-RPC message the proxy routes on.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

type pending struct {
	client *Client         // nil: the proxy's own request
	id     json.RawMessage // the client's id
	reply  chan []byte     // the proxy's own request
}

// Proxy is the project's gopls. The zero value is not usable; use New.
type Proxy struct {
	dir     string
	log     *slog.Logger
	startMu sync.Mutex // one start at a time

	mu         sync.Mutex
	proc       *exec.Cmd
	stdin      io.WriteCloser
	writeMu    sync.Mutex
	initResult json.RawMessage
	nextID     int64
	pending    map[int64]pending
	clients    map[*Client]struct{}
	closed     bool
	exited     chan struct{}

	docMu sync.Mutex            // held while a document's texts change and gopls is told
	docs  map[string]*sharedDoc // uri -> the file as each connection has it open
}

// New returns the proxy for the project folder dir; gopls starts on the
// first initialize.
func New(dir string, log *slog.Logger) *Proxy {
	if log == nil {
		log = slog.Default()
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		dir = abs
	}
	return &Proxy{dir: dir, log: log, pending: map[int64]pending{}, clients: map[*Client]struct{}{}, docs: map[string]*sharedDoc{}}
}

// RootURI is the workspace root gopls opens: the project folder, whose
// go.mod (written by `strata init`) resolves the SDK offline.
func (p *Proxy) RootURI() string { return FileURI(p.dir) }

// Available reports ErrNotInstalled when there is no gopls to start.
func (p *Proxy) Available() error { _, err := Find(); return err }

// Client is one editor connection. send receives every message for it (in
// order, from one goroutine at a time); it must not block for long.
type Client struct {
	p    *Proxy
	send func([]byte)
	mu   sync.Mutex
	open map[string]bool // documents this connection opened
}

// Connect attaches a connection.
func (p *Proxy) Connect(send func([]byte)) *Client {
	c := &Client{p: p, send: send, open: map[string]bool{}}
	p.mu.Lock()
	p.clients[c] = struct{}{}
	p.mu.Unlock()
	return c
}

// Handle takes one message from the connection.
func (c *Client) Handle(raw []byte) error {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("lsp: message is not JSON-RPC: %w", err)
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method == "initialize":
		res, err := c.p.start(m.Params)
		if err != nil {
			c.send(errorReply(m.ID, err.Error()))
			return nil
		}
		c.send(mustJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": res}))
		return nil
	case m.Method == "initialized" || m.Method == "exit":
		return nil // gopls was initialized once, and lives as long as the server
	case m.Method == "shutdown":
		c.send(mustJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil}))
		return nil
	case m.Method == "":
		return nil // a reply to a request of gopls: the proxy answered those itself
	case m.Method == "$/cancelRequest":
		return c.p.cancel(c, m.Params)
	}
	switch m.Method {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
		return c.p.documentMessage(c, m.Method, m.Params)
	}
	if !hasID {
		return c.p.write(raw)
	}
	if err := c.p.syncFor(c, m.Params); err != nil {
		c.send(errorReply(m.ID, err.Error()))
		return nil
	}
	id := c.p.track(pending{client: c, id: m.ID})
	out, err := withID(raw, id)
	if err != nil {
		return err
	}
	if err := c.p.write(out); err != nil {
		c.p.untrack(id)
		c.send(errorReply(m.ID, err.Error()))
	}
	return nil
}

// Close detaches the connection and closes the documents it opened.
func (c *Client) Close() {
	p := c.p
	p.mu.Lock()
	delete(p.clients, c)
	for id, pd := range p.pending {
		if pd.client == c {
			delete(p.pending, id)
		}
	}
	p.mu.Unlock()
	c.mu.Lock()
	uris := make([]string, 0, len(c.open))
	for u := range c.open {
		uris = append(uris, u)
	}
	c.mu.Unlock()
	p.docMu.Lock()
	defer p.docMu.Unlock()
	for _, u := range uris {
		_ = p.closeLocked(c, u)
	}
}

// start runs gopls and does the handshake once, with the first client's
// capabilities and the project folder as its root.
func (p *Proxy) start(params json.RawMessage) (json.RawMessage, error) {
	p.startMu.Lock()
	defer p.startMu.Unlock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("lsp: the server is shutting down")
	}
	if p.initResult != nil {
		r := p.initResult
		p.mu.Unlock()
		return r, nil
	}
	p.mu.Unlock()
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Dir = p.dir
	// Never touch the network: the project's go.mod resolves the SDK from
	// the copy `strata init` wrote, and the standard library is local.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr tail
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("lsp: start %s: %w", bin, err)
	}
	exited := make(chan struct{})
	p.mu.Lock()
	p.proc, p.stdin, p.exited = cmd, stdin, exited
	p.mu.Unlock()
	go p.readLoop(cmd, bufio.NewReaderSize(stdout, 64<<10), &stderr, exited)

	var ip map[string]any
	if len(params) > 0 {
		_ = json.Unmarshal(params, &ip)
	}
	if ip == nil {
		ip = map[string]any{}
	}
	root := p.RootURI()
	ip["processId"] = os.Getpid()
	ip["rootUri"] = root
	ip["rootPath"] = p.dir
	ip["workspaceFolders"] = []map[string]string{{"uri": root, "name": filepath.Base(p.dir)}}
	reply := make(chan []byte, 1)
	id := p.track(pending{reply: reply})
	if err := p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": "initialize", "params": ip})); err != nil {
		return nil, err
	}
	var res struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	select {
	case b := <-reply:
		if err := json.Unmarshal(b, &res); err != nil {
			return nil, fmt.Errorf("lsp: gopls's initialize reply is not JSON: %w", err)
		}
	case <-exited:
		return nil, fmt.Errorf("lsp: gopls exited during initialize: %s", stderr.String())
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return nil, errors.New("lsp: gopls did not answer initialize within 60s")
	}
	if res.Error != nil {
		return nil, fmt.Errorf("lsp: gopls refused initialize: %s", res.Error.Message)
	}
	if err := p.write([]byte(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.initResult = res.Result
	p.mu.Unlock()
	return res.Result, nil
}

// readLoop routes what gopls says until it exits.
func (p *Proxy) readLoop(cmd *exec.Cmd, r *bufio.Reader, stderr *tail, exited chan struct{}) {
	for {
		raw, err := readMessage(r)
		if err != nil {
			break
		}
		p.route(raw)
	}
	err := cmd.Wait()
	p.mu.Lock()
	closed := p.closed
	if p.proc == cmd {
		// The next initialize starts a fresh gopls.
		p.proc, p.stdin, p.initResult = nil, nil, nil
	}
	lost := p.pending
	p.pending = map[int64]pending{}
	p.mu.Unlock()
	// A fresh gopls has nothing open: connections open their files again.
	p.docMu.Lock()
	p.docs = map[string]*sharedDoc{}
	p.docMu.Unlock()
	close(exited)
	if !closed {
		p.log.Warn("gopls exited", "err", err, "stderr", stderr.String())
	}
	for _, pd := range lost {
		if pd.client != nil {
			pd.client.send(errorReply(pd.id, "gopls exited: reload the page to start it again"))
		}
	}
}

func (p *Proxy) route(raw []byte) {
	var m message
	if err := json.Unmarshal(raw, &m); err != nil {
		return
	}
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method != "" && hasID:
		// A request of gopls to the client (configuration, progress tokens,
		// capability registration): the proxy answers, since it is shared.
		var result any
		if m.Method == "workspace/configuration" {
			var cp struct {
				Items []json.RawMessage `json:"items"`
			}
			_ = json.Unmarshal(m.Params, &cp)
			result = make([]any, len(cp.Items))
		}
		_ = p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}))
	case m.Method != "":
		p.broadcast(m, raw)
	default:
		var id int64
		if err := json.Unmarshal(m.ID, &id); err != nil {
			return
		}
		pd, ok := p.untrack(id)
		if !ok {
			return
		}
		if pd.client == nil {
			pd.reply <- raw
			return
		}
		out, err := withID(raw, pd.id)
		if err == nil {
			pd.client.send(out)
		}
	}
}

// broadcast sends a notification of gopls: diagnostics to the connections
// that have the file open, warnings and errors to all; progress reports go
// nowhere, since the proxy created their tokens.
func (p *Proxy) broadcast(m message, raw []byte) {
	if m.Method == "$/progress" {
		return
	}
	if m.Method == "window/showMessage" {
		// "Finished loading packages." and the like would pop up in every
		// editor; only warnings and errors (types 1 and 2) are worth it.
		var sp struct {
			Type int `json:"type"`
		}
		if json.Unmarshal(m.Params, &sp) == nil && sp.Type > 2 {
			return
		}
	}
	if m.Method == "textDocument/publishDiagnostics" {
		for c, out := range p.diagnosticsFor(raw) {
			c.send(out)
		}
		return
	}
	p.mu.Lock()
	cs := make([]*Client, 0, len(p.clients))
	for c := range p.clients {
		cs = append(cs, c)
	}
	p.mu.Unlock()
	for _, c := range cs {
		c.send(raw)
	}
}

// cancel passes connection c's $/cancelRequest on under the proxy's id
// for that request: c's own ids name other requests at gopls (another
// tab's, or after a reconnect an older one), so passed on as they were
// they cancelled a request nobody gave up on. A request already answered
// is no longer pending: there is nothing to cancel.
func (p *Proxy) cancel(c *Client, params json.RawMessage) error {
	var cp struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &cp); err != nil || len(cp.ID) == 0 {
		return fmt.Errorf("lsp: $/cancelRequest params %s: want {\"id\": the request's id}", params)
	}
	var id int64
	p.mu.Lock()
	for pid, pd := range p.pending {
		if pd.client == c && bytes.Equal(pd.id, cp.ID) {
			id = pid
			break
		}
	}
	p.mu.Unlock()
	if id == 0 {
		return nil
	}
	return p.write(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}}))
}

func (p *Proxy) track(pd pending) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	p.pending[p.nextID] = pd
	return p.nextID
}

func (p *Proxy) untrack(id int64) (pending, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pd, ok := p.pending[id]
	delete(p.pending, id)
	return pd, ok
}

func (p *Proxy) write(body []byte) error {
	p.mu.Lock()
	w := p.stdin
	p.mu.Unlock()
	if w == nil {
		return errors.New("lsp: gopls is not running: send initialize first")
	}
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	if err := writeMessage(w, body); err != nil {
		return fmt.Errorf("lsp: write to gopls: %w", err)
	}
	return nil
}

// Close stops gopls: shutdown and exit, then a kill if it lingers.
func (p *Proxy) Close() {
	p.mu.Lock()
	p.closed = true
	cmd, exited := p.proc, p.exited
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = p.write([]byte(`{"jsonrpc":"2.0","id":0,"method":"shutdown"}`))
	_ = p.write([]byte(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case <-exited:
	case <-time.After(2 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

func withID(raw []byte, id any) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	b, err := json.Marshal(id)
	if err != nil {
		return nil, err
	}
	m["id"] = b
	return json.Marshal(m)
}

func errorReply(id json.RawMessage, msg string) []byte {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": msg}})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only maps of plain values are marshalled here
	}
	return b
}

// tail keeps the last 4 KiB of gopls's stderr for error messages.
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if t.buf.Len() > 4096 {
		rest := t.buf.Bytes()[t.buf.Len()-4096:]
		t.buf.Reset()
		t.buf.Write(rest)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
