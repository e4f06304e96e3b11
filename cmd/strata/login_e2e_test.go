package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/hydratest"
	"github.com/stratahq/strata/e2e/strataproc"
)

// TestBrowserLoginThroughHydra drives the whole OpenID Connect login of
// `strata start` against a real Ory Hydra, as a browser would (an HTTP
// client with a cookie jar that follows redirects): strata → Hydra → the
// login and consent app → Hydra → /auth/callback → the page asked for, then
// the API with the session cookie and the role its claim gave. The server's
// own token keeps working beside sessions; logout ends the session. Bad
// state, a missing login cookie, a foreign issuer, a replayed callback, a
// provider that says no and a user with no role are each a 4xx naming the
// problem, and the server's log holds no code, token or secret.
func TestBrowserLoginThroughHydra(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts hydra")
	}
	idp := hydratest.Start(t)
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", demo, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	port := freeTCPPort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	client := idp.CreateClient(t, base+"/auth/callback")
	t.Setenv("STRATA_TEST_OIDC_SECRET", client.Secret)
	appendFile(t, filepath.Join(demo, "strata.yaml"), `
secrets:
  oidc: {env: STRATA_TEST_OIDC_SECRET}
login:
  issuer: `+idp.Issuer+`
  client_id: `+client.ID+`
  client_secret: oidc
  redirect_url: `+base+`/auth/callback
  scopes: [email]
  role_claim: strata_role
  users:
    bo@example.com: viewer
`)
	const token = "0123456789abcdef-login"
	srv := strataproc.Start(t, bin, demo, token, "--addr", "127.0.0.1:"+strconv.Itoa(port))

	// ana's role comes from her claim.
	idp.SetUser("ana", map[string]any{"email": "ana@example.com", "strata_role": "operator"})
	b := newBrowser(t)
	status, _, final := b.get(base + "/auth/login?next=/pipelines/clv")
	if status != http.StatusOK || final.Path != "/pipelines/clv" || final.Host != "127.0.0.1:"+strconv.Itoa(port) {
		t.Fatalf("the login ended at %s with %d, want the page asked for", final, status)
	}
	callback := b.lastCallback
	if callback == "" {
		t.Fatal("the browser never passed /auth/callback")
	}
	me := b.me(t, base)
	if me.Name != "ana@example.com" || me.Role != "operator" || !me.Session {
		t.Fatalf("/me in ana's session: %+v", me)
	}
	// The session carries ana's role, no more: an admin route is refused.
	if status, body, _ := b.get(base + "/api/v1/users"); status != http.StatusForbidden || !strings.Contains(body.String(), "needs the admin role; ana@example.com is operator") {
		t.Fatalf("GET /users as operator: %d %s", status, body)
	}
	// The session cookie is HttpOnly, SameSite and signed: a changed one is refused.
	sess := b.cookie("strata_session_" + strconv.Itoa(port))
	if sess == nil || !sess.HttpOnly || sess.SameSite != http.SameSiteLaxMode {
		t.Fatalf("session cookie: %+v", sess)
	}
	// The server's token works as before, for the API, the CLI and workers.
	var owner struct{ Name string }
	srv.Call(t, http.MethodGet, "/me", "", &owner)
	if owner.Name != "owner" {
		t.Fatalf("/me with the token: %+v", owner)
	}
	// The callback cannot be replayed: its login cookie is spent.
	if status, body := b.getNoFollow(callback); status != http.StatusBadRequest || !strings.Contains(body, "no login under way") {
		t.Fatalf("replayed callback: %d %s", status, body)
	}
	// Logout ends the session; the 401 says where to log in.
	if status, body := b.post(base + "/auth/logout"); status != http.StatusNoContent {
		t.Fatalf("logout: %d %s", status, body)
	}
	if status, body, _ := b.get(base + "/api/v1/me"); status != http.StatusUnauthorized || !strings.Contains(body.String(), `"login":"/auth/login"`) {
		t.Fatalf("/me after logout: %d %s", status, body)
	}
	forged := newBrowser(t)
	forged.jar.SetCookies(mustURL(base), []*http.Cookie{{Name: sess.Name, Value: strings.Replace(sess.Value, ".", "x.", 1), Path: "/"}})
	if status, _, _ := forged.get(base + "/api/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("a changed session cookie: %d, want 401", status)
	}

	// bo has no role claim: login.users gives him viewer.
	idp.SetUser("bo", map[string]any{"email": "bo@example.com"})
	bo := newBrowser(t)
	if status, _, _ := bo.get(base + "/auth/login"); status != http.StatusOK {
		t.Fatalf("bo's login: %d", status)
	}
	if me := bo.me(t, base); me.Name != "bo@example.com" || me.Role != "viewer" {
		t.Fatalf("/me in bo's session: %+v", me)
	}

	// eve is known to the provider, not to Strata.
	idp.SetUser("eve", map[string]any{"email": "eve@example.com"})
	eve := newBrowser(t)
	if status, body, _ := eve.get(base + "/auth/login"); status != http.StatusForbidden || !strings.Contains(body.String(), "eve@example.com logged in at the provider but has no role on this server") {
		t.Fatalf("eve's login: %d %s", status, body)
	}
	if status, _, _ := eve.get(base + "/api/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("eve has a session: %d", status)
	}
	// A role claim that names no role.
	idp.SetUser("max", map[string]any{"email": "max@example.com", "strata_role": "superuser"})
	if status, body, _ := newBrowser(t).get(base + "/auth/login"); status != http.StatusForbidden || !strings.Contains(body.String(), `claim: superuser names no role`) {
		t.Fatalf("a bad role claim: %d %s", status, body)
	}
	// The user says no at the provider.
	idp.Deny()
	if status, body, _ := newBrowser(t).get(base + "/auth/login"); status != http.StatusForbidden || !strings.Contains(body.String(), "the provider refused the login: access_denied") {
		t.Fatalf("a denied login: %d %s", status, body)
	}

	// Callbacks that did not come from a login this browser started.
	mal := newBrowser(t)
	if status, body := mal.getNoFollow(base + "/auth/callback?code=abc&state=xyz"); status != http.StatusBadRequest || !strings.Contains(body, "login_expired") {
		t.Fatalf("a callback without a login: %d %s", status, body)
	}
	state := mal.startLogin(t, base)
	if status, body := mal.getNoFollow(base + "/auth/callback?code=abc&state=not-" + state); status != http.StatusBadRequest || !strings.Contains(body, "login_state") {
		t.Fatalf("a wrong state: %d %s", status, body)
	}
	state = mal.startLogin(t, base)
	if status, body := mal.getNoFollow(base + "/auth/callback?code=abc&state=" + state + "&iss=" + url.QueryEscape("https://evil.example.com")); status != http.StatusBadRequest || !strings.Contains(body, "login_issuer") {
		t.Fatalf("a foreign issuer: %d %s", status, body)
	}
	state = mal.startLogin(t, base)
	if status, body := mal.getNoFollow(base + "/auth/callback?code=made-up-code&state=" + state); status != http.StatusBadRequest || !strings.Contains(body, "the provider refused the code") {
		t.Fatalf("a made-up code: %d %s", status, body)
	}

	// The server is still up and nothing it logged holds a secret.
	srv.Call(t, http.MethodGet, "/me", "", &owner)
	srv.Stop(t)
	log := srv.Stderr.String()
	if !strings.Contains(log, "browser login") {
		t.Fatalf("the log has no login line:\n%s", log)
	}
	cb := mustURL(callback)
	for what, secret := range map[string]string{"the code": cb.Query().Get("code"), "the client secret": client.Secret, "the session cookie": sess.Value} {
		if secret == "" || strings.Contains(log, secret) {
			t.Fatalf("the log holds %s (%q):\n%s", what, secret, log)
		}
	}
	if strings.Contains(log, "eyJ") { // a JWT: an ID token
		t.Fatalf("the log holds a JWT:\n%s", log)
	}
	out, code := strataproc.Run(t, bin, "audit", demo, "--action", "user")
	if code != 0 || !strings.Contains(out, "user.login") || !strings.Contains(out, "ana@example.com") || !strings.Contains(out, "user.logout") {
		t.Fatalf("strata audit --action user: exit %d\n%s", code, out)
	}

	// A provider whose discovery names another issuer stops the start.
	wrong := strings.Replace(idp.Issuer, "127.0.0.1", "localhost", 1)
	out, code = strataproc.Run(t, bin, "start", demo, "--addr", "127.0.0.1:0", "--token", token, "--login-issuer", wrong)
	if code == 0 || !strings.Contains(out, "issuer") || !strings.Contains(out, wrong) {
		t.Fatalf("start with a wrong issuer: exit %d\n%s", code, out)
	}
}

// browser is an HTTP client with a cookie jar that follows redirects and
// notes the last /auth/callback it passed.
type browser struct {
	jar          *cookiejar.Jar
	c            *http.Client
	lastCallback string
	setCookies   []*http.Cookie // every Set-Cookie seen, attributes and all
}

// RoundTrip records Set-Cookie headers: the jar keeps names and values only.
func (b *browser) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		for _, h := range resp.Header.Values("Set-Cookie") {
			if c, err := http.ParseSetCookie(h); err == nil {
				b.setCookies = append(b.setCookies, c)
			}
		}
	}
	return resp, err
}

func newBrowser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{jar: jar}
	b.c = &http.Client{Jar: jar, Transport: b, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Path == "/auth/callback" {
			b.lastCallback = req.URL.String()
		}
		if len(via) > 20 {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	return b
}

func (b *browser) get(u string) (int, *strings.Builder, *url.URL) {
	resp, err := b.c.Get(u)
	if err != nil {
		return 0, &strings.Builder{}, nil
	}
	defer resp.Body.Close()
	var sb strings.Builder
	_, _ = io.Copy(&sb, resp.Body)
	return resp.StatusCode, &sb, resp.Request.URL
}

func (b *browser) getNoFollow(u string) (int, string) {
	c := *b.c
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(u)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func (b *browser) post(u string) (int, string) {
	resp, err := b.c.Post(u, "application/json", nil)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// startLogin opens /auth/login without following it and returns the state
// the server sent to the provider (its login cookie is now in the jar).
func (b *browser) startLogin(t *testing.T, base string) string {
	t.Helper()
	c := *b.c
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(base + "/auth/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("/auth/login: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	q := loc.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("nonce") == "" || q.Get("state") == "" {
		t.Fatalf("the authorization request lacks PKCE, nonce or state: %s", loc)
	}
	return q.Get("state")
}

type meAnswer struct {
	Name    string `json:"name"`
	Role    string `json:"role"`
	Session bool   `json:"session"`
}

func (b *browser) me(t *testing.T, base string) meAnswer {
	t.Helper()
	status, body, _ := b.get(base + "/api/v1/me")
	var me meAnswer
	if status != http.StatusOK || json.Unmarshal([]byte(body.String()), &me) != nil {
		t.Fatalf("/me: %d %s", status, body)
	}
	return me
}

// cookie is the last Set-Cookie of name with a value.
func (b *browser) cookie(name string) *http.Cookie {
	for i := len(b.setCookies) - 1; i >= 0; i-- {
		if c := b.setCookies[i]; c.Name == name && c.Value != "" {
			return c
		}
	}
	return nil
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func freeTCPPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
