package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/secrets"
	"github.com/stratahq/strata/server/auth"
	"github.com/stratahq/strata/server/login"
)

// loginFlags override strata.yaml's login: section, for a server whose
// provider is configured by its deployment rather than by the project.
type loginFlags struct {
	issuer, clientID, secretEnv, redirect string
}

func (f *loginFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.issuer, "login-issuer", "", "browser login: the OpenID provider's issuer URL (overrides login.issuer of strata.yaml)")
	fs.StringVar(&f.clientID, "login-client-id", "", "browser login: the client id registered at the provider (overrides login.client_id)")
	fs.StringVar(&f.secretEnv, "login-client-secret-env", "", "browser login: the environment variable holding the client secret (overrides login.client_secret)")
	fs.StringVar(&f.redirect, "login-redirect-url", "", "browser login: this server's URL followed by /auth/callback (overrides login.redirect_url)")
}

// openLogin sets up browser login when strata.yaml or the flags ask for
// it: nil, nil when neither does. The provider's discovery document is read
// here, so a wrong issuer stops the start with the reason.
func openLogin(ctx context.Context, proj *project.Project, users *auth.Store, f loginFlags) (*login.Login, error) {
	lc := proj.Login
	if f.issuer != "" {
		lc.Issuer = f.issuer
	}
	if f.clientID != "" {
		lc.ClientID = f.clientID
	}
	if f.redirect != "" {
		lc.RedirectURL = f.redirect
	}
	if lc.Issuer == "" && f.clientID == "" && f.secretEnv == "" && f.redirect == "" {
		return nil, nil
	}
	var secret string
	switch {
	case f.secretEnv != "":
		if secret = os.Getenv(f.secretEnv); secret == "" {
			return nil, fmt.Errorf("--login-client-secret-env %s: the variable is empty or unset", f.secretEnv)
		}
	case lc.ClientSecret != "":
		v, err := secrets.New(proj.Dir, proj.Secrets).Resolve(lc.ClientSecret)
		if err != nil {
			return nil, fmt.Errorf("login.client_secret: %w", err)
		}
		secret = v
	}
	roles := map[string]auth.Role{}
	for name, r := range lc.Users {
		role, err := auth.ParseRole(r)
		if err != nil {
			return nil, fmt.Errorf("login.users.%s: %w", name, err)
		}
		roles[name] = role
	}
	key, err := login.LoadKey(proj.Dir)
	if err != nil {
		return nil, err
	}
	cfg := login.Config{
		Issuer: lc.Issuer, ClientID: lc.ClientID, ClientSecret: secret, RedirectURL: lc.RedirectURL,
		Scopes: lc.Scopes, NameClaim: lc.NameClaim, RoleClaim: lc.RoleClaim, Users: roles,
		Session: lc.Session, Key: key, Lookup: users.RoleOf,
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	l, err := login.New(dctx, cfg)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("login: the provider at %s did not answer within 30s: %w", lc.Issuer, err)
		}
		return nil, err
	}
	return l, nil
}
