package login

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/server/auth"
)

func TestSealedCookiesRefuseChanges(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	v, err := seal(key, kindSession, session{Name: "ana", Role: auth.Operator})
	if err != nil {
		t.Fatal(err)
	}
	var got session
	if err := open(key, kindSession, v, &got); err != nil || got.Name != "ana" || got.Role != auth.Operator {
		t.Fatalf("open: %+v %v", got, err)
	}
	body, sig, _ := strings.Cut(v, ".")
	for name, bad := range map[string]string{
		"another key":         mustSeal(t, []byte(strings.Repeat("x", 32)), kindSession, session{Name: "ana", Role: auth.Admin}),
		"a login cookie":      mustSeal(t, key, kindLogin, session{Name: "ana", Role: auth.Admin}),
		"a changed body":      strings.ToUpper(body[:4]) + body[4:] + "." + sig,
		"no signature":        body,
		"an empty value":      "",
		"a signature of junk": body + ".!!!",
	} {
		if err := open(key, kindSession, bad, &got); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func mustSeal(t *testing.T, key []byte, kind string, v any) string {
	s, err := seal(key, kind, v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A session ends at its expiry; one mapped through the project's users
// ends when the user is revoked.
func TestSessionExpiresAndFollowsRevokes(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	active := map[string]auth.Role{"bo": auth.Editor}
	l := &Login{cfg: Config{Key: []byte(strings.Repeat("k", 32)), Now: func() time.Time { return now }, Lookup: func(n string) (auth.Role, bool) {
		r, ok := active[n]
		return r, ok
	}}}
	req := func(s session) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:6789/api/v1/me", nil)
		r.AddCookie(&http.Cookie{Name: "strata_session_6789", Value: mustSeal(t, l.cfg.Key, kindSession, s)})
		return r
	}
	if p, ok := l.Session(req(session{Name: "ana", Role: auth.Viewer, Source: "claim", Expires: now.Add(time.Minute)})); !ok || p.Name != "ana" {
		t.Fatalf("a live session: %+v %v", p, ok)
	}
	if _, ok := l.Session(req(session{Name: "ana", Role: auth.Viewer, Source: "claim", Expires: now})); ok {
		t.Fatal("an expired session was accepted")
	}
	bo := session{Name: "bo", Role: auth.Admin, Source: "users", Expires: now.Add(time.Hour)}
	if p, ok := l.Session(req(bo)); !ok || p.Role != auth.Editor {
		t.Fatalf("bo's session takes his current role: %+v %v", p, ok)
	}
	delete(active, "bo")
	if _, ok := l.Session(req(bo)); ok {
		t.Fatal("a revoked user's session was accepted")
	}
	// Another server on another port does not read this one's cookie.
	r := req(session{Name: "ana", Role: auth.Viewer, Source: "claim", Expires: now.Add(time.Minute)})
	r.Host = "127.0.0.1:7000"
	if _, ok := l.Session(r); ok {
		t.Fatal("the session of port 6789 was accepted on port 7000")
	}
}

// A login cookie older than the login window is refused with a 400 that
// says to start again.
func TestExpiredLoginIsRefused(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l := &Login{cfg: Config{Key: []byte(strings.Repeat("k", 32)), Now: func() time.Time { return now }}}
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:6789/auth/login", nil)
	l.oauth.Endpoint.AuthURL = "http://idp.invalid/auth"
	u := l.Begin(w, r, "/runs")
	state := u[strings.Index(u, "state=")+len("state="):]
	state = state[:strings.IndexByte(state+"&", '&')]
	now = now.Add(loginWindow + time.Second)
	cb := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:6789/auth/callback?code=c&state="+state, nil)
	for _, c := range w.Result().Cookies() {
		cb.AddCookie(c)
	}
	_, _, err := l.Finish(cb.Context(), httptest.NewRecorder(), cb)
	le, ok := err.(*Error)
	if !ok || le.Status != http.StatusBadRequest || le.Code != "login_expired" || !strings.Contains(le.Message, "expired") {
		t.Fatalf("an expired login: %v", err)
	}
}

func TestNextStaysOnThisServer(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "/",
		"/runs/x?tab=log":          "/runs/x?tab=log",
		"//evil.example.com/x":     "/",
		"https://evil.example.com": "/",
		`/\evil.example.com`:       "/",
		"runs":                     "/",
	} {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoleClaim(t *testing.T) {
	for _, c := range []struct {
		v    any
		want auth.Role
		bad  bool
	}{
		{"operator", auth.Operator, false},
		{[]any{"staff", "viewer", "editor"}, auth.Editor, false},
		{"superuser", auth.None, true},
		{[]any{}, auth.None, true},
		{42.0, auth.None, true},
	} {
		got, err := roleOf(c.v)
		if got != c.want || (err != nil) != c.bad {
			t.Errorf("roleOf(%v) = %v, %v", c.v, got, err)
		}
	}
}
