package server

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestAuthAPI(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name   string
		path   string
		header []string
		want   int
	}{
		{"no token", "/api/v1/pipelines", []string{"Authorization", ""}, http.StatusUnauthorized},
		{"wrong bearer", "/api/v1/pipelines", []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized},
		{"wrong scheme", "/api/v1/pipelines", []string{"Authorization", "Basic " + testToken}, http.StatusUnauthorized},
		{"token prefix", "/api/v1/pipelines", []string{"Authorization", "Bearer " + testToken[:10]}, http.StatusUnauthorized},
		{"wrong query token", "/api/v1/pipelines?token=nope", []string{"Authorization", ""}, http.StatusUnauthorized},
		{"unknown route without token", "/api/v1/secret/route", []string{"Authorization", ""}, http.StatusUnauthorized},
		{"metrics without token", "/metrics", []string{"Authorization", ""}, http.StatusUnauthorized},
		{"right bearer", "/api/v1/pipelines", nil, http.StatusOK},
		{"query token on the API", "/api/v1/pipelines?token=" + testToken, []string{"Authorization", ""}, http.StatusOK},
		{"healthz needs no token", "/healthz", []string{"Authorization", ""}, http.StatusOK},
		{"unknown route with token", "/api/v1/secret/route", nil, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, data := e.request(http.MethodGet, tc.path, nil, tc.header...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, data)
			}
			if tc.want >= 400 {
				ae := apiError(t, data)
				if tc.want == http.StatusUnauthorized && ae.Code != CodeUnauthorized {
					t.Fatalf("code %q", ae.Code)
				}
				if tc.want == http.StatusUnauthorized && strings.Contains(string(data), "secret") {
					t.Fatalf("401 leaks the route: %s", data)
				}
			}
		})
	}
	t.Run("405 in the error shape", func(t *testing.T) {
		resp, data := e.request(http.MethodPatch, "/api/v1/pipelines", nil)
		if resp.StatusCode != http.StatusMethodNotAllowed || apiError(t, data).Code != CodeMethodNotAllowed {
			t.Fatalf("status %d: %s", resp.StatusCode, data)
		}
	})
}

// A first visit with ?token= sets an HttpOnly, SameSite=Strict cookie and
// redirects to the same URL without the token; the cookie then works.
func TestTokenQuerySetsCookie(t *testing.T) {
	e := newEnv(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(e.url + "/pipelines/clv?tab=graph&token=" + testToken)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/pipelines/clv?tab=graph" {
		t.Fatalf("status %d, location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		cookie = c
	}
	if cookie == nil || cookie.Value != testToken || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || !strings.HasPrefix(cookie.Name, "strata_token") {
		t.Fatalf("cookie %+v", cookie)
	}
	req, _ := http.NewRequest(http.MethodGet, e.url+"/api/v1/pipelines", nil)
	req.AddCookie(cookie)
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("with the cookie: status %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodGet, e.url+"/api/v1/pipelines", nil)
	req.AddCookie(&http.Cookie{Name: cookie.Name, Value: "forged"})
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("forged cookie: status %d", resp.StatusCode)
	}
	// The websocket accepts the cookie too (a browser cannot set headers).
	hdr := http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}}
	c, resp2, err := e.dial(hdr)
	if err != nil {
		t.Fatalf("websocket with the cookie: %v %v", err, resp2)
	}
	c.send(ClientMessage{Type: MsgPing, ID: "p"})
	c.await("pong", 5*time.Second, func(m Message) bool { return m.Type == MsgPong })
}

func TestWebsocketAuthAndOrigin(t *testing.T) {
	e := newEnv(t)
	host := strings.TrimPrefix(e.url, "http://")
	cases := []struct {
		name string
		hdr  http.Header
		want int // 0: connects
	}{
		{"no token", http.Header{}, http.StatusUnauthorized},
		{"wrong token", http.Header{"Authorization": {"Bearer wrong"}}, http.StatusUnauthorized},
		{"cross origin", http.Header{"Authorization": {"Bearer " + testToken}, "Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"same host, other port", http.Header{"Authorization": {"Bearer " + testToken}, "Origin": {"http://127.0.0.1:1"}}, http.StatusForbidden},
		{"same origin", http.Header{"Authorization": {"Bearer " + testToken}, "Origin": {"http://" + host}}, 0},
		{"no origin (not a browser)", authHeader(), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, resp, err := e.dial(tc.hdr)
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("dial: %v", err)
				}
				c.send(ClientMessage{Type: MsgPing, ID: "1"})
				c.await("pong", 5*time.Second, func(m Message) bool { return m.Type == MsgPong && m.ID == "1" })
				return
			}
			if err != websocket.ErrBadHandshake || resp == nil || resp.StatusCode != tc.want {
				t.Fatalf("want refusal %d, got err %v resp %v", tc.want, err, resp)
			}
			data, _ := io.ReadAll(resp.Body)
			apiError(t, data)
		})
	}
}

func TestNoAuthOnlyOnLoopback(t *testing.T) {
	e := newEnv(t)
	for _, addr := range []string{"0.0.0.0:6789", ":6789", "192.168.1.4:80", "[::]:6789"} {
		_, err := New(Config{Engine: e.eng, Warehouse: e.wh, Notebook: notebookConfig(), NoAuth: true, Addr: addr})
		if err == nil {
			t.Errorf("--no-auth on %s accepted", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:6789", "localhost:1", "[::1]:80"} {
		if !IsLoopback(addr) {
			t.Errorf("%s should be loopback", addr)
		}
	}
	if _, err := New(Config{Engine: e.eng, Warehouse: e.wh, Notebook: notebookConfig(), Token: "short"}); err == nil {
		t.Error("a short token was accepted")
	}
}

func TestDotDotRefused(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{
		"/api/v1/pipelines/clv/blocks/..%2F..%2Fstrata",
		"/api/v1/pipelines/..%2Fstrata/blocks/x",
		"/api/v1/pipelines/%2e%2e/blocks",
		"/api/v1/pipelines/clv/blocks/../../../etc/passwd",
		"/../../etc/passwd",
		"/assets/..%2f..%2fgo.mod",
	} {
		resp, data := e.request(http.MethodGet, p, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s: status %d: %s", p, resp.StatusCode, data)
			continue
		}
		apiError(t, data)
	}
	for _, tc := range []struct{ path, body string }{
		{"/api/v1/pipelines", `{"id": "../evil"}`},
		{"/api/v1/pipelines", `{"id": "a/../../b"}`},
		{"/api/v1/pipelines/clv/blocks", `{"id": "../../evil", "kind": "go"}`},
		{"/api/v1/pipelines/clv/blocks", `{"id": "evil", "upstream": ["../x"]}`},
	} {
		resp, data := e.request(http.MethodPost, tc.path, strings.NewReader(tc.body), "Content-Type", "application/json")
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("POST %s %s: status %d: %s", tc.path, tc.body, resp.StatusCode, data)
		}
	}
	resp, data := e.request(http.MethodPut, "/api/v1/pipelines/..%2Fevil", "blocks: []\n")
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("PUT pipeline ../evil: %d %s", resp.StatusCode, data)
	}
}

// zeros is an endless body that costs no memory.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestBodyLimit(t *testing.T) {
	e := newEnv(t)
	const size = 100 << 20
	t.Run("declared length", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPut, e.url+"/api/v1/pipelines/clv", io.LimitReader(zeros{}, size))
		req.ContentLength = size
		req.Header.Set("Authorization", "Bearer "+testToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || apiError(t, data).Code != CodeTooLarge {
			t.Fatalf("status %d: %s", resp.StatusCode, data)
		}
	})
	t.Run("chunked", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPut, e.url+"/api/v1/pipelines/clv", io.LimitReader(zeros{}, size))
		req.ContentLength = -1 // chunked: the server finds out while reading
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/yaml")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			// The server answered 413 and closed while the client was still
			// sending; the client may see the reset before the answer.
			if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, syscall.EPIPE) {
				t.Fatal(err)
			}
			t.Logf("the client saw the connection close before the 413: %v", err)
			return
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || apiError(t, data).Code != CodeTooLarge {
			t.Fatalf("status %d: %s", resp.StatusCode, data)
		}
	})
	// The pipeline file was not touched.
	var pv pipelineView
	e.call(http.MethodGet, "/api/v1/pipelines/clv", nil, http.StatusOK, &pv)
	if !strings.Contains(pv.YAML, "raw_orders") {
		t.Fatalf("pipeline file changed: %q", pv.YAML)
	}
}
