package login

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"
)

// seal signs v (as JSON) for a cookie of kind: base64(json) "." base64(mac).
// The kind is part of the MAC, so a login cookie cannot pass as a session.
func seal(key []byte, kind string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(b)
	return body + "." + base64.RawURLEncoding.EncodeToString(mac(key, kind, body)), nil
}

var errBadCookie = errors.New("cookie not signed by this server")

// open checks a sealed value and decodes it into v.
func open(key []byte, kind, s string, v any) error {
	body, sig, ok := strings.Cut(s, ".")
	if !ok {
		return errBadCookie
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac(key, kind, body)) {
		return errBadCookie
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return errBadCookie
	}
	return json.Unmarshal(b, v)
}

func mac(key []byte, kind, body string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(body))
	return h.Sum(nil)
}

// Cookie kinds.
const (
	kindSession = "strata_session"
	kindLogin   = "strata_login" // the state of a login under way
)

// cookieName adds the port: browsers share cookies between the ports of one
// host, and two Strata servers on one laptop must not share sessions.
func cookieName(kind string, r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return kind + "_" + port
	}
	return kind
}

// setCookie writes an HttpOnly cookie. SameSite=Lax, not Strict: the
// provider sends the browser back to /auth/callback from its own site, and
// a Strict cookie would not come along on that navigation (nor on the
// redirect to the page the user asked for). Lax still keeps the cookie off
// cross-site POSTs and subrequests; the websocket checks Origin besides.
func setCookie(w http.ResponseWriter, r *http.Request, kind, value string, maxAge time.Duration) {
	c := &http.Cookie{
		Name:     cookieName(kind, r),
		Value:    value,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
		Secure:   r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https"),
	}
	if maxAge > 0 {
		c.MaxAge = int(maxAge / time.Second)
	} else {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}
