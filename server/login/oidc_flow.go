package login

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/stratahq/strata/server/auth"
)

// Login is one configured provider. It is safe for concurrent use and
// keeps no state between requests: a login under way lives in its signed
// cookie, a session in its own.
type Login struct {
	cfg      Config
	oauth    oauth2.Config
	verifier *oidc.IDTokenVerifier
	issuer   string
}

// New checks cfg and reads the provider's discovery document: a provider
// that is down or names another issuer is an error here, at start, not at
// a user's first login.
func New(ctx context.Context, cfg Config) (*Login, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.NameClaim == "" {
		cfg.NameClaim = DefaultNameClaim
	}
	if cfg.Session <= 0 {
		cfg.Session = DefaultSession
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	p, err := oidc.NewProvider(ctx, cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("login: read the discovery document of %s: %w", cfg.Issuer, err)
	}
	scopes := []string{oidc.ScopeOpenID}
	for _, s := range cfg.Scopes {
		if !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	l := &Login{cfg: cfg, issuer: cfg.Issuer}
	l.oauth = oauth2.Config{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, RedirectURL: cfg.RedirectURL, Endpoint: p.Endpoint(), Scopes: scopes}
	l.verifier = p.Verifier(&oidc.Config{ClientID: cfg.ClientID, Now: cfg.Now})
	return l, nil
}

// Error is a failed login step, with the HTTP status the server answers.
type Error struct {
	Status  int
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func fail(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// pending is a login under way, kept in the login cookie between Begin and
// Finish. The verifier never leaves this server except to the provider's
// token endpoint.
type pending struct {
	State    string    `json:"s"`
	Nonce    string    `json:"n"`
	Verifier string    `json:"v"`
	Next     string    `json:"next"`
	Expires  time.Time `json:"exp"`
}

// session is what the session cookie holds: a user and role, never a
// provider token.
type session struct {
	Name    string    `json:"name"`
	Role    auth.Role `json:"role"`
	Source  string    `json:"src"` // claim, table or users
	Expires time.Time `json:"exp"`
}

// Begin starts a login: it sets the login cookie (state, nonce, PKCE
// verifier) and returns the provider's authorization URL to redirect to.
// next is where Finish sends the browser; only a path on this server.
func (l *Login) Begin(w http.ResponseWriter, r *http.Request, next string) string {
	p := pending{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(), Next: localPath(next), Expires: l.cfg.Now().Add(loginWindow)}
	v, err := seal(l.cfg.Key, kindLogin, p)
	if err != nil {
		panic(err) // a struct of strings always marshals
	}
	setCookie(w, r, kindLogin, v, loginWindow)
	return l.oauth.AuthCodeURL(p.State, oauth2.S256ChallengeOption(p.Verifier), oidc.Nonce(p.Nonce))
}

// Finish is the callback: it checks state (and the issuer, when the
// provider names it), exchanges the code with the PKCE verifier, verifies
// the ID token (signature, issuer, audience, expiry, nonce), maps it to a
// user and role and sets the session cookie. It returns who logged in and
// where to send the browser.
func (l *Login) Finish(ctx context.Context, w http.ResponseWriter, r *http.Request) (auth.Principal, string, error) {
	q := r.URL.Query()
	ck, err := r.Cookie(cookieName(kindLogin, r))
	if err != nil {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_expired", "no login under way in this browser (the login cookie is missing): start again at %s", LoginPath)
	}
	var p pending
	if err := open(l.cfg.Key, kindLogin, ck.Value, &p); err != nil {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_expired", "the login cookie was not made by this server: start again at %s", LoginPath)
	}
	setCookie(w, r, kindLogin, "", -1) // one use, whatever happens next
	if !l.cfg.Now().Before(p.Expires) {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_expired", "the login started at %s expired (logins must finish within %s): start again at %s", p.Expires.Add(-loginWindow).UTC().Format(time.RFC3339), loginWindow, LoginPath)
	}
	if got := q.Get("state"); got == "" || got != p.State {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_state", "the state parameter does not match the login started in this browser: start again at %s", LoginPath)
	}
	if e := q.Get("error"); e != "" {
		return auth.Principal{}, "", fail(http.StatusForbidden, "login_denied", "the provider refused the login: %s (%s)", e, clip(q.Get("error_description")))
	}
	// RFC 9207: a provider that names itself must be the one configured,
	// or a code from another provider is about to be sent to ours.
	if iss := q.Get("iss"); iss != "" && strings.TrimSuffix(iss, "/") != strings.TrimSuffix(l.issuer, "/") {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_issuer", "the answer comes from issuer %q, but this server trusts %q (login.issuer in strata.yaml)", clip(iss), l.issuer)
	}
	code := q.Get("code")
	if code == "" {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_code", "the callback has no code parameter")
	}
	tok, err := l.oauth.Exchange(ctx, code, oauth2.VerifierOption(p.Verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			// The provider's own error code only: its body may quote what we sent.
			return auth.Principal{}, "", fail(http.StatusBadRequest, "login_code", "the provider refused the code: %s", clip(re.ErrorCode))
		}
		return auth.Principal{}, "", fail(http.StatusBadGateway, "login_provider", "the provider's token endpoint could not be reached: %s", scrub(err, code))
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return auth.Principal{}, "", fail(http.StatusBadGateway, "login_provider", "the provider returned no ID token: is the openid scope allowed for client %q?", l.cfg.ClientID)
	}
	idt, err := l.verifier.Verify(ctx, raw)
	if err != nil {
		return auth.Principal{}, "", fail(http.StatusUnauthorized, "login_token", "the ID token was refused: %s", scrub(err, raw))
	}
	if idt.Nonce != p.Nonce {
		return auth.Principal{}, "", fail(http.StatusBadRequest, "login_nonce", "the ID token's nonce does not match the login started in this browser")
	}
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		return auth.Principal{}, "", fail(http.StatusBadGateway, "login_provider", "the ID token's claims do not decode: %v", err)
	}
	s, err := l.mapUser(claims)
	if err != nil {
		return auth.Principal{}, "", err
	}
	s.Expires = l.cfg.Now().Add(l.cfg.Session)
	v, err := seal(l.cfg.Key, kindSession, s)
	if err != nil {
		return auth.Principal{}, "", err
	}
	setCookie(w, r, kindSession, v, l.cfg.Session)
	return auth.Principal{Name: s.Name, Role: s.Role}, p.Next, nil
}

// mapUser decides the Strata user and role of verified claims: the role
// claim, then login.users, then the project's named users.
func (l *Login) mapUser(claims map[string]any) (session, error) {
	name, _ := claims[l.cfg.NameClaim].(string)
	if name == "" {
		return session{}, fail(http.StatusForbidden, "login_unknown_user", "the ID token has no %q claim to name the user by (login.name_claim; \"sub\" is always there)", l.cfg.NameClaim)
	}
	if l.cfg.RoleClaim != "" {
		if v, ok := claims[l.cfg.RoleClaim]; ok {
			role, err := roleOf(v)
			if err != nil {
				return session{}, fail(http.StatusForbidden, "login_role", "%s's %q claim: %v", name, l.cfg.RoleClaim, err)
			}
			return session{Name: name, Role: role, Source: "claim"}, nil
		}
	}
	if role, ok := l.cfg.Users[name]; ok {
		return session{Name: name, Role: role, Source: "table"}, nil
	}
	if l.cfg.Lookup != nil {
		if role, ok := l.cfg.Lookup(name); ok {
			return session{Name: name, Role: role, Source: "users"}, nil
		}
	}
	return session{}, fail(http.StatusForbidden, "login_unknown_user", "%s logged in at the provider but has no role on this server: add them to login.users in strata.yaml, or `strata users add %s --role viewer`", name, name)
}

// roleOf reads a role claim: one role name, or a list of which the highest
// known role counts (a groups claim may hold other names too).
func roleOf(v any) (auth.Role, error) {
	var names []string
	switch v := v.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	}
	best := auth.None
	for _, n := range names {
		if r, err := auth.ParseRole(n); err == nil && r > best {
			best = r
		}
	}
	if best == auth.None {
		return auth.None, fmt.Errorf("%s names no role: want viewer, editor, operator or admin", clip(fmt.Sprint(v)))
	}
	return best, nil
}

// Session returns the user of a request's session cookie, if it has a
// valid one. A session mapped through the project's named users is checked
// against them again, so a revoked user is out at once.
func (l *Login) Session(r *http.Request) (auth.Principal, bool) {
	ck, err := r.Cookie(cookieName(kindSession, r))
	if err != nil {
		return auth.Principal{}, false
	}
	var s session
	if err := open(l.cfg.Key, kindSession, ck.Value, &s); err != nil || !l.cfg.Now().Before(s.Expires) || s.Name == "" {
		return auth.Principal{}, false
	}
	if s.Source == "users" {
		role, ok := auth.None, false
		if l.cfg.Lookup != nil {
			role, ok = l.cfg.Lookup(s.Name)
		}
		if !ok {
			return auth.Principal{}, false
		}
		s.Role = role
	}
	if s.Role < auth.Viewer || s.Role > auth.Admin {
		return auth.Principal{}, false
	}
	return auth.Principal{Name: s.Name, Role: s.Role}, true
}

// Logout ends the browser's session.
func (l *Login) Logout(w http.ResponseWriter, r *http.Request) {
	setCookie(w, r, kindSession, "", -1)
	setCookie(w, r, kindLogin, "", -1)
}

// random is 32 bytes of crypto/rand, URL-safe.
func random() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// localPath keeps next a path on this server: "/x?y", never "//host" or
// "https://elsewhere" (an open redirect).
func localPath(next string) string {
	u, err := url.Parse(next)
	if err != nil || next == "" || u.IsAbs() || u.Host != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, `\`) {
		return "/"
	}
	return u.RequestURI()
}

// clip shortens text the provider or the caller chose before it goes in an
// error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// scrub removes a secret the error may quote.
func scrub(err error, secret string) string {
	msg := err.Error()
	if secret != "" {
		msg = strings.ReplaceAll(msg, secret, "[redacted]")
	}
	return clip(msg)
}
