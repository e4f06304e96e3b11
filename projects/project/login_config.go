package project

import (
	"net/url"
	"slices"
	"time"
)

// The `login:` section of strata.yaml: optional browser login through an
// OpenID Connect provider. The flow and the cookies live in server/login;
// this file only reads and checks the settings. The client secret is not
// written here: client_secret names a secret of the secrets: section.
//
//	login:
//	  issuer: https://accounts.example.com
//	  client_id: strata
//	  client_secret: oidc            # a name under secrets:
//	  redirect_url: https://strata.example.com/auth/callback
//	  scopes: [email, profile]       # openid is always asked for
//	  name_claim: email              # the claim that names the user (default email)
//	  role_claim: strata_role        # optional: a claim holding the role
//	  users:                         # optional: names to roles
//	    ana@example.com: operator
//	  session: 12h                   # how long a browser stays logged in

// LoginConfig is the login section; Issuer is empty when login is off.
type LoginConfig struct {
	Issuer       string
	ClientID     string
	ClientSecret string // the name of a secret
	RedirectURL  string
	Scopes       []string
	NameClaim    string
	RoleClaim    string
	Users        map[string]string // user name to role name
	Session      time.Duration
	Line         int
}

// LoginRoles are the role names login.users accepts (server/auth's roles).
var LoginRoles = []string{"viewer", "editor", "operator", "admin"}

var loginFields = []string{"issuer", "client_id", "client_secret", "redirect_url", "scopes", "name_claim", "role_claim", "users", "session"}

func (d *decoder) decodeLogin(p *Project, sec entry) {
	f, ok := d.fields(sec.val, "login", "login settings", loginFields)
	if !ok {
		return
	}
	l := LoginConfig{Line: sec.val.Line}
	httpURL := func(field, want string) string {
		e, ok := f[field]
		if !ok {
			return ""
		}
		s, ok := d.str(e, "login."+field)
		if !ok {
			return ""
		}
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			d.addf(e.val, "login."+field, "%s %q: want %s", field, s, want)
			return ""
		}
		return s
	}
	if _, ok := f["issuer"]; !ok {
		d.addf(sec.val, "login", "missing login.issuer: want the OpenID provider's issuer URL, such as https://accounts.example.com")
	} else {
		l.Issuer = httpURL("issuer", "the OpenID provider's issuer URL, such as https://accounts.example.com")
	}
	if _, ok := f["redirect_url"]; !ok {
		d.addf(sec.val, "login", "missing login.redirect_url: want this server's address followed by /auth/callback")
	} else if s := httpURL("redirect_url", "this server's address followed by /auth/callback"); s != "" {
		if u, _ := url.Parse(s); u.Path != "/auth/callback" {
			d.addf(f["redirect_url"].val, "login.redirect_url", "redirect_url %q: the path must be /auth/callback", s)
		} else {
			l.RedirectURL = s
		}
	}
	for _, fld := range []struct {
		name string
		dst  *string
		want string
	}{
		{"client_id", &l.ClientID, "the client id the provider registered for Strata"},
		{"client_secret", &l.ClientSecret, "the name of a secret (under secrets:) holding the client secret"},
		{"name_claim", &l.NameClaim, "a claim name such as email or sub"},
		{"role_claim", &l.RoleClaim, "a claim name such as strata_role or groups"},
	} {
		e, ok := f[fld.name]
		if !ok {
			if fld.name == "client_id" || fld.name == "client_secret" {
				d.addf(sec.val, "login", "missing login.%s: want %s", fld.name, fld.want)
			}
			continue
		}
		if s, ok := d.str(e, "login."+fld.name); ok {
			if s == "" {
				d.addf(e.val, "login."+fld.name, "empty %s: want %s", fld.name, fld.want)
			} else {
				*fld.dst = s
			}
		}
	}
	if l.ClientSecret != "" {
		if _, ok := p.Secrets[l.ClientSecret]; !ok {
			d.addf(f["client_secret"].val, "login.client_secret", "client_secret %q is not a secret of this project: add it under secrets: (with env: or file:), never the value itself", l.ClientSecret)
		}
	}
	if e, ok := f["scopes"]; ok {
		l.Scopes, _, _ = d.strList(e, "login.scopes")
	}
	if e, ok := f["session"]; ok {
		if v, ok := d.duration(e, "login.session", false); ok {
			l.Session = v
		}
	}
	if e, ok := f["users"]; ok {
		users := d.strMap(e, "login.users")
		for name, role := range users {
			if !slices.Contains(LoginRoles, role) {
				d.addf(e.val, join("login.users", name), "role %q of %s: want one of %s", role, name, quoteList(LoginRoles))
				delete(users, name)
			}
		}
		l.Users = users
	}
	p.Login = l
}
