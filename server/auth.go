package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/server/auth"
	"github.com/stratahq/strata/server/login"
)

// NewToken returns 32 hex characters from crypto/rand.
func NewToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// TokenFile is where `strata start` writes a generated token, readable only
// by its owner, so scripts on the same machine can call the API.
func TokenFile(projectDir string) string { return filepath.Join(projectDir, ".strata", "token") }

// WriteTokenFile writes token to TokenFile with mode 0600.
func WriteTokenFile(projectDir, token string) error {
	p := TokenFile(projectDir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, []byte(token+"\n"), 0o600); err != nil {
		return err
	}
	return os.Chmod(p, 0o600) // WriteFile keeps the mode of an existing file
}

// IsLoopback reports whether addr (host:port) listens on loopback only.
// An empty host means every interface, which is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// cookieName includes the port: browsers share cookies between the ports of
// one host, and two Strata servers on one laptop must not log each other out.
func cookieName(r *http.Request) string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		return "strata_token"
	}
	return "strata_token_" + port
}

// tokenMatches compares with the server's own token in constant time.
// Hashing first makes the time independent of the length of the guess, too.
func (s *Server) tokenMatches(got string) bool {
	if got == "" || s.cfg.Token == "" {
		return false
	}
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(s.cfg.Token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// owner is whoever holds the server's own token: the admin of a
// one-person install.
var owner = auth.Principal{Name: auth.Owner, Role: auth.Admin}

// whoIs returns the principal a token belongs to: the server's own token
// is the owner, any other is looked up among the project's users.
func (s *Server) whoIs(tok string) (auth.Principal, bool) {
	if s.tokenMatches(tok) {
		return owner, true
	}
	return s.users.Authenticate(tok)
}

// needsAuth: the API, the websocket and /metrics (which names pipelines and
// backfills). /healthz and the static frontend, which holds no data, do not.
func needsAuth(path string) bool { return isAPIPath(path) }

// principalKey is where authenticate leaves the caller on the echo context.
const principalKey = "strata.principal"

// sessionKey marks a caller who came with a browser-login session cookie.
const sessionKey = "strata.session"

// principal is the caller of a request that passed authenticate; a request
// that needed no token (the static frontend) has none.
func principal(c echo.Context) (auth.Principal, bool) {
	p, ok := c.Get(principalKey).(auth.Principal)
	return p, ok
}

// authenticate accepts a token from, in order, an Authorization: Bearer
// header, the cookie, or a ?token= query parameter, and leaves who it
// belongs to on the context for authorize. A page visit with a valid
// ?token= sets the cookie and redirects to the same URL without it, so the
// token leaves the address bar and the history; an API call with ?token=
// (a websocket cannot send headers from a browser) sets the cookie and goes
// on. Failing requests get a bare 401 in the error shape and nothing else.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if s.cfg.NoAuth {
			// Without a token, a DNS-rebinding page could reach the API as
			// same-origin; a loopback Host header shows the browser really
			// addressed this machine.
			if needsAuth(r.URL.Path) && !hostIsLoopback(r.Host) {
				return apiErr(http.StatusForbidden, CodeForbidden, "Host %q is not a loopback name; with --no-auth only loopback hosts are served", r.Host)
			}
			c.Set(principalKey, owner)
			return next(c)
		}
		query := r.URL.Query()
		if qt, ok := query["token"]; ok {
			p, valid := auth.Principal{}, false
			if len(qt) == 1 {
				p, valid = s.whoIs(qt[0])
			}
			if !valid {
				return unauthorized()
			}
			s.setCookie(c, qt[0])
			c.Set(principalKey, p)
			if !needsAuth(r.URL.Path) && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
				query.Del("token")
				u := url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: query.Encode()}
				return c.Redirect(http.StatusFound, u.String())
			}
			return next(c)
		}
		if !needsAuth(r.URL.Path) {
			return next(c)
		}
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, tok, _ := strings.Cut(h, " ")
			p, ok := s.whoIs(strings.TrimSpace(tok))
			if !strings.EqualFold(scheme, "Bearer") || !ok {
				return unauthorized()
			}
			c.Set(principalKey, p)
			return next(c)
		}
		if ck, err := r.Cookie(cookieName(r)); err == nil {
			if p, ok := s.whoIs(ck.Value); ok {
				c.Set(principalKey, p)
				return next(c)
			}
		}
		if s.cfg.Login != nil {
			if p, ok := s.cfg.Login.Session(r); ok {
				c.Set(principalKey, p)
				c.Set(sessionKey, true)
				return next(c)
			}
			e := unauthorized()
			e.Message += ", or log in at " + login.LoginPath
			e.Details = map[string]string{"login": login.LoginPath}
			return e
		}
		return unauthorized()
	}
}

func unauthorized() *APIError {
	return apiErr(http.StatusUnauthorized, CodeUnauthorized, "missing or wrong token: send Authorization: Bearer <token>, or open the URL printed by `strata start`")
}

// setCookie keeps the token the browser came with, the caller's own.
func (s *Server) setCookie(c echo.Context, tok string) {
	c.SetCookie(&http.Cookie{
		Name:     cookieName(c.Request()),
		Value:    tok,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   c.Request().TLS != nil,
	})
}

func hostIsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return IsLoopback(net.JoinHostPort(host, "0"))
}

// sameOrigin is the websocket's Origin check. Browsers always send Origin
// on a websocket handshake, so a missing one is a non-browser client (which
// had to present the token anyway). A browser's Origin must name this very
// host and port: a page of another site must not drive a kernel with the
// user's cookie.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// rejectDotDot refuses any path with a ".." segment, decoded or not, before
// routing: no id or file name of Strata contains one, so it can only be an
// attempt to climb out of the project folder or the frontend.
func (s *Server) rejectDotDot(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		for _, p := range []string{r.URL.Path, r.URL.RawPath} {
			for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
				if seg == ".." || strings.EqualFold(seg, "%2e%2e") {
					return apiErr(http.StatusBadRequest, CodeBadPath, "path %q contains \"..\"", r.URL.Path)
				}
			}
		}
		// Route on the decoded path so that parameters arrive unescaped (run
		// ids hold ':', which browsers send as %3A). No Strata name holds a
		// '/', so an escaped one has no meaning to keep.
		if !strings.Contains(strings.ToLower(r.URL.RawPath), "%2f") {
			r.URL.RawPath = ""
		}
		return next(c)
	}
}

// limitBody bounds request bodies. A declared length over the limit is
// refused before a byte is read; a chunked body fails when it passes it.
func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength > s.cfg.BodyLimit {
			return apiErr(http.StatusRequestEntityTooLarge, CodeTooLarge, "request body of %d bytes is larger than the limit of %d bytes", r.ContentLength, s.cfg.BodyLimit)
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(c.Response(), r.Body, s.cfg.BodyLimit)
		}
		return next(c)
	}
}
