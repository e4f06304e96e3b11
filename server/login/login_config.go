package login

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/stratahq/strata/server/auth"
)

// Defaults of Config.
const (
	DefaultNameClaim = "email"
	DefaultSession   = 12 * time.Hour
	// loginWindow is how long a started login may take at the provider.
	loginWindow = 10 * time.Minute
)

// Config is one provider and how its users map to Strata's.
type Config struct {
	Issuer       string // the provider's issuer URL, as its discovery document names it
	ClientID     string
	ClientSecret string // resolved from a secret by the caller; never logged
	RedirectURL  string // this server's /auth/callback as the provider knows it
	Scopes       []string
	// NameClaim is the ID-token claim that names the Strata user
	// (DefaultNameClaim when empty); "sub" works with every provider.
	NameClaim string
	// RoleClaim, when set, is a claim whose value is the user's role
	// (viewer, editor, operator or admin), as a string or a list of strings
	// (the highest role wins).
	RoleClaim string
	// Users maps user names to roles (login.users in strata.yaml); consulted
	// when RoleClaim is unset or absent from the token.
	Users map[string]auth.Role
	// Lookup finds a named user of the project (server/auth's store) when
	// neither the claim nor Users decide; a session mapped this way is
	// checked again on every request, so a revoke bites at once.
	Lookup func(name string) (auth.Role, bool)
	// Session is how long a session cookie lasts (DefaultSession when 0).
	Session time.Duration
	// Key signs the cookies: at least 32 bytes (LoadKey).
	Key []byte
	Now func() time.Time // time.Now when nil
}

func (c *Config) check() error {
	var errs []error
	if u, err := url.Parse(c.Issuer); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("login issuer %q: want the provider's https URL, such as https://accounts.example.com", c.Issuer))
	}
	if c.ClientID == "" {
		errs = append(errs, errors.New("login client_id is empty: want the client id the provider registered for Strata"))
	}
	if c.ClientSecret == "" {
		errs = append(errs, errors.New("login client secret is empty: name a secret of strata.yaml in login.client_secret, holding the provider's client secret"))
	}
	if u, err := url.Parse(c.RedirectURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Path != CallbackPath {
		errs = append(errs, fmt.Errorf("login redirect_url %q: want this server's address followed by %s, such as https://strata.example.com%s", c.RedirectURL, CallbackPath, CallbackPath))
	}
	if len(c.Key) < 32 {
		errs = append(errs, fmt.Errorf("login cookie key: %d bytes, want at least 32", len(c.Key)))
	}
	return errors.Join(errs...)
}

// The server's login paths.
const (
	LoginPath    = "/auth/login"
	CallbackPath = "/auth/callback"
	LogoutPath   = "/auth/logout"
)

// KeyFile is where a project keeps the key that signs its login cookies.
func KeyFile(projectDir string) string { return filepath.Join(projectDir, ".strata", "session-key") }

// LoadKey reads the project's cookie key, making a random one (0600) on
// first use. Deleting the file logs every browser out.
func LoadKey(projectDir string) ([]byte, error) {
	p := KeyFile(projectDir)
	if b, err := os.ReadFile(p); err == nil && len(b) >= 32 {
		return b, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read the session key: %w", err)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "session-key-*")
	if err != nil {
		return nil, fmt.Errorf("write the session key: %w", err)
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("write the session key: %w", werr)
	}
	// Two servers starting at once: the last rename wins and both read
	// back what is on disk.
	if err := os.Rename(f.Name(), p); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
