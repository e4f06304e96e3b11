package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/notebook"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

// The test binary doubles as the kernel (kernel/kerneltest), so every test
// drives real kernel processes over the real protocol.
func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	os.Exit(m.Run())
}

func kernelConfig() supervisor.Config { return kerneltest.Config() }

// notebookConfig starts editor kernels as cmd/strata does, from the test
// binary.
func notebookConfig() notebook.Config { return notebook.Config{Kernel: kernelConfig()} }

const testToken = "0123456789abcdef0123456789abcdef"

// env is a real server on a real listener over the demo project: a DuckDB
// file in t.TempDir(), a kernel pool and session kernels that are child
// processes of the test binary. It does what `strata start` does.
type env struct {
	t    testing.TB
	dir  string
	url  string
	srv  *Server
	hs   *httptest.Server
	eng  *engine.Engine
	wh   *warehouse.Warehouse
	pool *supervisor.Pool
}

func newEnv(t testing.TB, tune ...func(*Config)) *env {
	t.Helper()
	return newEnvWith(t, false, tune...)
}

// newCompiledEnv is newEnv with compiled workers available, as `strata
// start` has when a Go toolchain is installed.
func newCompiledEnv(t testing.TB, tune ...func(*Config)) *env {
	t.Helper()
	return newEnvWith(t, true, tune...)
}

func newEnvWith(t testing.TB, compiled bool, tune ...func(*Config)) *env {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := scaffold.Init(dir, true); err != nil {
		t.Fatal(err)
	}
	proj, err := project.Load(dir)
	if proj == nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".strata"), 0o755); err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		t.Fatal(err)
	}
	pool := supervisor.NewPool(kernelConfig(), 2)
	var opt engine.Options
	if compiled {
		opt.Compiler = build.NewCompiler(dir, kernelConfig(), 2)
		t.Cleanup(opt.Compiler.Close)
	}
	eng, err := engine.New(ctx, proj, wh, pool, opt)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Engine: eng, Warehouse: wh, Pool: pool, Notebook: notebookConfig(), ProjectDir: proj.Dir,
		Token: testToken, Logger: testLogger()}
	for _, f := range tune {
		f(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	e := &env{t: t, dir: proj.Dir, url: hs.URL, srv: srv, hs: hs, eng: eng, wh: wh, pool: pool}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		hs.Close()
		eng.Close()
		pool.Close()
		wh.Close()
	})
	return e
}

// request sends an authenticated request; body is JSON unless it is a
// string or an io.Reader.
func (e *env) request(method, path string, body any, hdr ...string) (*http.Response, []byte) {
	e.t.Helper()
	var r io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case string:
		r, ctype = strings.NewReader(b), "text/plain"
	case io.Reader:
		r, ctype = b, "application/octet-stream"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.url+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	if r != nil {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, data
}

// call sends a request, checks the status and decodes the answer into out.
func (e *env) call(method, path string, body any, want int, out any) []byte {
	e.t.Helper()
	resp, data := e.request(method, path, body)
	if resp.StatusCode != want {
		e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: decode %s: %v", method, path, data, err)
		}
	}
	return data
}

// apiError decodes the error shape, failing the test if the body has another.
func apiError(t testing.TB, data []byte) APIError {
	t.Helper()
	var b struct {
		Error *APIError `json:"error"`
	}
	if err := json.Unmarshal(data, &b); err != nil || b.Error == nil || b.Error.Code == "" || b.Error.Message == "" {
		t.Fatalf("not the error shape: %s (%v)", data, err)
	}
	return *b.Error
}

func (e *env) wsURL() string { return "ws" + strings.TrimPrefix(e.url, "http") + "/api/v1/ws" }

// wsClient is a websocket client that reads messages in the background.
type wsClient struct {
	t    testing.TB
	conn *websocket.Conn
	in   chan Message
	err  error // why reading stopped, once in is closed
	seq  int
}

// closed waits for the server to close the connection and returns the error
// that ended reading.
func (c *wsClient) closed(timeout time.Duration) error {
	c.t.Helper()
	timeout = generous(timeout)
	deadline := time.After(timeout)
	for {
		select {
		case _, ok := <-c.in:
			if !ok {
				return c.err
			}
		case <-deadline:
			c.t.Fatalf("connection still open after %s", timeout)
		}
	}
}

func (e *env) dial(hdr http.Header) (*wsClient, *http.Response, error) {
	conn, resp, err := websocket.DefaultDialer.Dial(e.wsURL(), hdr)
	if err != nil {
		return nil, resp, err
	}
	c := &wsClient{t: e.t, conn: conn, in: make(chan Message, 4096)}
	go func() {
		defer close(c.in)
		for {
			var m Message
			if err := conn.ReadJSON(&m); err != nil {
				c.err = err
				return
			}
			c.in <- m
		}
	}()
	e.t.Cleanup(func() { conn.Close() })
	return c, resp, nil
}

func authHeader() http.Header { return http.Header{"Authorization": {"Bearer " + testToken}} }

// connect dials with the token and fails the test on error.
func (e *env) connect() *wsClient {
	e.t.Helper()
	c, resp, err := e.dial(authHeader())
	if err != nil {
		e.t.Fatalf("dial: %v (%v)", err, resp)
	}
	return c
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	if err := c.conn.WriteJSON(v); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) sendRaw(kind int, data []byte) {
	c.t.Helper()
	if err := c.conn.WriteMessage(kind, data); err != nil {
		c.t.Fatal(err)
	}
}

func (c *wsClient) nextID() string {
	c.seq++
	return "m" + strconv.Itoa(c.seq)
}

// generous lifts a wait's bound to a minute at least. A bound only decides
// when a test gives up on a message that should come; the 5 and 10 s ones
// the tests name were too short for a kernel start on the shared, loaded
// 2-core CI machine, where one slow answer failed the whole `make test`.
func generous(timeout time.Duration) time.Duration { return max(timeout, time.Minute) }

// await reads messages until one matches, returning it and those before it.
func (c *wsClient) await(what string, timeout time.Duration, match func(Message) bool) (Message, []Message) {
	c.t.Helper()
	var seen []Message
	timeout = generous(timeout)
	deadline := time.After(timeout)
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				c.t.Fatalf("connection closed while waiting for %s; saw %+v", what, seen)
			}
			if match(m) {
				return m, seen
			}
			seen = append(seen, m)
		case <-deadline:
			c.t.Fatalf("no %s within %s; saw %+v", what, timeout, seen)
		}
	}
}

// hello attaches to a session and returns its status.
func (c *wsClient) hello(session string) Message {
	c.t.Helper()
	id := c.nextID()
	c.send(ClientMessage{Type: MsgHello, ID: id, Session: session})
	m, _ := c.await("status for hello", 10*time.Second, func(m Message) bool { return m.ID == id })
	if m.Type != MsgStatus {
		c.t.Fatalf("hello answered %+v", m)
	}
	return m
}

// execute runs source as a block of the demo pipeline and returns the final
// message (result or error) with everything that came before it.
func (c *wsClient) execute(block, source, partition string, timeout time.Duration) (Message, []Message) {
	c.t.Helper()
	id := c.nextID()
	c.send(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: block, Source: source, Partition: partition})
	return c.await("result of "+id, timeout, func(m Message) bool {
		return m.ID == id && (m.Type == MsgResult || m.Type == MsgError)
	})
}

const loadSource = `package raw_orders

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("n"), sdk.String("key"))
	for i := 0; i < 250; i++ {
		t.Append(int64(i), ctx.Partition.Key)
	}
	fmt.Println("hello from", ctx.Partition.Key)
	ctx.Log.Info("built", "rows", t.Len())
	return t, nil
}
`

const trivialSource = `package raw_orders

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("x"))
	t.Append(int64(1))
	return t, nil
}
`

// sleepSource runs for about ms milliseconds.
func sleepSource(ms int) string {
	return `package raw_orders

import (
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	time.Sleep(` + strconv.Itoa(ms) + ` * time.Millisecond)
	t := sdk.NewTable(sdk.Int64("x"))
	t.Append(int64(1))
	return t, nil
}
`
}

// testLogger discards logs unless STRATA_TEST_LOG is set.
func testLogger() *slog.Logger {
	if os.Getenv("STRATA_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
