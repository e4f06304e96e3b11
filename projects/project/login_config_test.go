package project

import (
	"strings"
	"testing"
	"time"
)

// The login section: a good one reads as written; each mistake is a
// problem naming its field and what was expected, and the client secret
// must be a name under secrets:, never the value.
func TestLoginSettings(t *testing.T) {
	t.Parallel()
	good := `name: x
secrets:
  oidc: {env: OIDC_SECRET}
login:
  issuer: https://accounts.example.com
  client_id: strata
  client_secret: oidc
  redirect_url: https://strata.example.com/auth/callback
  scopes: [email]
  role_claim: groups
  users:
    ana@example.com: operator
  session: 8h
`
	dir := writeProject(t, map[string]string{"strata.yaml": good})
	proj, err := Load(dir)
	if err != nil || len(proj.Problems) != 0 {
		t.Fatalf("load: %v %v", err, proj.Problems)
	}
	l := proj.Login
	if l.Issuer != "https://accounts.example.com" || l.ClientID != "strata" || l.ClientSecret != "oidc" || l.RoleClaim != "groups" ||
		l.Users["ana@example.com"] != "operator" || l.Session != 8*time.Hour || len(l.Scopes) != 1 {
		t.Fatalf("login %+v", l)
	}

	base := "secrets:\n  oidc: {env: OIDC_SECRET}\nlogin:\n  client_id: strata\n  client_secret: oidc\n  redirect_url: https://s/auth/callback\n"
	for _, c := range []struct{ text, field, want string }{
		{base + "  issuer: accounts.example.com\n", "login.issuer", "issuer URL"},
		{strings.Replace(base, "redirect_url: https://s/auth/callback", "redirect_url: https://s/callback", 1) + "  issuer: https://i\n", "login.redirect_url", "/auth/callback"},
		{"login:\n  issuer: https://i\n  client_id: strata\n  client_secret: hunter2\n  redirect_url: https://s/auth/callback\n", "login.client_secret", "not a secret of this project"},
		{base + "  issuer: https://i\n  users:\n    bo: boss\n", "login.users.bo", "viewer"},
		{base + "  issuer: https://i\n  session: forever\n", "login.session", "duration"},
		{base, "login", "missing login.issuer"},
		{base + "  issuer: https://i\n  client: x\n", "login.client", "client_id"},
	} {
		dir := writeProject(t, map[string]string{"strata.yaml": c.text})
		proj, _ := Load(dir)
		found := false
		for _, p := range proj.Problems {
			if p.Field == c.field && strings.Contains(p.Message, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want a problem at %s saying %q, got %v", c.text, c.field, c.want, proj.Problems)
		}
	}
}
