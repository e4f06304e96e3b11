// Package hydratest starts a throwaway OpenID Connect provider for tests:
// a real Ory Hydra (v2.3.0, built by `make setup` into
// $HOME/.cache/strata/tools/hydra-<HydraVersion>) serving from memory
// (DSN=memory) on free ports of 127.0.0.1, stopped when the test ends. No
// mock: the discovery document, the keys, the authorization and token
// endpoints are Hydra's.
//
// Hydra delegates the login and consent pages to the application; the
// package serves them (LoginApp) and answers for whichever user the test
// set with SetUser, as a person typing a password would.
//
// Without the binary a test is skipped with the reason, except under CI
// (CI=true), where it fails: CI must not pass by skipping what it never ran.
package hydratest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// HydraVersion is the version `make setup` builds; ToolDir is named after it.
const HydraVersion = "v2.3.0"

// ToolDir is where `make setup` builds hydra.
func ToolDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "strata", "tools", "hydra-"+HydraVersion)
}

// Path finds the hydra binary: $STRATA_HYDRA, ToolDir, or $PATH; empty
// when there is none.
func Path() string {
	if p := os.Getenv("STRATA_HYDRA"); p != "" {
		return p
	}
	if p := filepath.Join(ToolDir(), "hydra"); fileExists(p) {
		return p
	}
	if p, err := exec.LookPath("hydra"); err == nil {
		return p
	}
	return ""
}

// Server is a running Hydra with its login and consent app.
type Server struct {
	Issuer   string // http://127.0.0.1:PORT/, the public endpoint
	AdminURL string // http://127.0.0.1:PORT, the admin API

	app   *httptest.Server
	cmd   *exec.Cmd
	done  chan struct{} // closed when hydra exits; exit holds why
	exit  error
	logf  string
	mu    sync.Mutex
	user  string
	claim map[string]any
	deny  bool
}

// Start starts a Hydra for t; it stops when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Path()
	if bin == "" {
		why := "no Ory Hydra binary: `make setup` builds it into " + ToolDir() + " (or set STRATA_HYDRA)"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + "; CI must run the login tests")
		}
		t.Skip(why)
	}
	s := &Server{}
	s.app = httptest.NewServer(http.HandlerFunc(s.serveApp))
	t.Cleanup(s.app.Close)
	dir := t.TempDir()
	pub, admin := freePort(t), freePort(t)
	s.Issuer = "http://127.0.0.1:" + strconv.Itoa(pub) + "/"
	s.AdminURL = "http://127.0.0.1:" + strconv.Itoa(admin)
	s.logf = filepath.Join(dir, "hydra.log")
	logw, err := os.Create(s.logf)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(bin, "serve", "all", "--dev", "--sqa-opt-out")
	s.cmd.Env = append(os.Environ(),
		"DSN=memory",
		"URLS_SELF_ISSUER="+s.Issuer,
		"URLS_LOGIN="+s.app.URL+"/login",
		"URLS_CONSENT="+s.app.URL+"/consent",
		"SECRETS_SYSTEM="+randomHex(24),
		"SERVE_PUBLIC_HOST=127.0.0.1", "SERVE_PUBLIC_PORT="+strconv.Itoa(pub),
		"SERVE_ADMIN_HOST=127.0.0.1", "SERVE_ADMIN_PORT="+strconv.Itoa(admin),
		"OAUTH2_PKCE_ENFORCED=true", // a client that skips PKCE fails
		"LOG_LEVEL=info", "LOG_LEAK_SENSITIVE_VALUES=false",
	)
	s.cmd.Stdout, s.cmd.Stderr = logw, logw
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start hydra: %v", err)
	}
	s.done = make(chan struct{})
	go func() { s.exit = s.cmd.Wait(); logw.Close(); close(s.done) }()
	t.Cleanup(s.stop)
	if err := s.waitReady(90 * time.Second); err != nil {
		t.Fatalf("hydra did not become ready: %v\n%s", err, s.Log())
	}
	return s
}

func (s *Server) stop() {
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
	}
}

// Log is what Hydra printed so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logf)
	return string(b)
}

func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("hydra exited: %v", s.exit)
		default:
		}
		for _, u := range []string{s.AdminURL + "/health/ready", s.Issuer + ".well-known/openid-configuration"} {
			resp, err := http.Get(u)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("%s: %s", u, resp.Status)
				}
			}
			last = err
			if err != nil {
				break
			}
		}
		if last == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// Client is an OAuth2 client registered at the provider.
type Client struct {
	ID     string
	Secret string
}

// CreateClient registers a confidential client for the authorization-code
// flow that may redirect to redirectURL.
func (s *Server) CreateClient(t testing.TB, redirectURL string) Client {
	t.Helper()
	body := map[string]any{
		"client_name":                "strata-test",
		"client_secret":              randomHex(24),
		"grant_types":                []string{"authorization_code"},
		"response_types":             []string{"code"},
		"scope":                      "openid email profile",
		"redirect_uris":              []string{redirectURL},
		"token_endpoint_auth_method": "client_secret_basic",
	}
	var out struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if err := s.admin(context.Background(), http.MethodPost, "/admin/clients", body, &out); err != nil {
		t.Fatalf("create a hydra client: %v", err)
	}
	if out.ClientSecret == "" {
		out.ClientSecret = body["client_secret"].(string)
	}
	return Client{ID: out.ClientID, Secret: out.ClientSecret}
}

// SetUser is who logs in at the provider from now on: the subject and the
// claims put in the ID token (such as email and a role claim).
func (s *Server) SetUser(subject string, claims map[string]any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user, s.claim, s.deny = subject, claims, false
}

// Deny makes the next logins fail at the provider (access_denied), as a
// user who cancels would.
func (s *Server) Deny() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deny = true
}

// serveApp is the login and consent app Hydra redirects browsers to.
func (s *Server) serveApp(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	user, claims, deny := s.user, s.claim, s.deny
	s.mu.Unlock()
	ctx := r.Context()
	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	var err error
	switch r.URL.Path {
	case "/login":
		ch := url.QueryEscape(r.URL.Query().Get("login_challenge"))
		if deny || user == "" {
			err = s.admin(ctx, http.MethodPut, "/admin/oauth2/auth/requests/login/reject?login_challenge="+ch,
				map[string]any{"error": "access_denied", "error_description": "the user said no"}, &out)
		} else {
			err = s.admin(ctx, http.MethodPut, "/admin/oauth2/auth/requests/login/accept?login_challenge="+ch,
				map[string]any{"subject": user}, &out)
		}
	case "/consent":
		ch := url.QueryEscape(r.URL.Query().Get("consent_challenge"))
		var req struct {
			Scope    []string `json:"requested_scope"`
			Audience []string `json:"requested_access_token_audience"`
		}
		if err = s.admin(ctx, http.MethodGet, "/admin/oauth2/auth/requests/consent?consent_challenge="+ch, nil, &req); err == nil {
			err = s.admin(ctx, http.MethodPut, "/admin/oauth2/auth/requests/consent/accept?consent_challenge="+ch, map[string]any{
				"grant_scope":                 req.Scope,
				"grant_access_token_audience": req.Audience,
				"session":                     map[string]any{"id_token": claims},
			}, &out)
		}
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	http.Redirect(w, r, out.RedirectTo, http.StatusFound)
}

// admin calls Hydra's admin API.
func (s *Server) admin(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.AdminURL+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// freePort is a port nothing listens on now.
func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
