package secrets

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// S3 is an s3 secret (`kind: s3` in strata.yaml): an access key for an
// S3-compatible server.
//
//	secrets:
//	  lake:
//	    kind: s3
//	    key_id: {env: LAKE_KEY_ID}      # read like any secret: env or file
//	    secret: {env: LAKE_SECRET}
//	    endpoint: {env: LAKE_ENDPOINT}  # or a plain host:port; empty is AWS
//	    region: us-east-1
//	    url_style: path                 # path or vhost
//	    use_ssl: false
//	    scope: s3://lake                # optional: the paths it is for
//
// The key id and the secret are masked like every secret value; the
// endpoint, region and the rest are settings, not masked (an endpoint such
// as 127.0.0.1 would mask ordinary text).
type S3 struct {
	KeyID    Spec
	Secret   Spec
	Endpoint string // host[:port], written in strata.yaml; or EndpointEnv
	// EndpointEnv is the environment variable that holds the endpoint, for
	// a server whose address differs per machine.
	EndpointEnv string
	Region      string
	URLStyle    string // "", path or vhost
	UseSSL      *bool
	Scope       string // "" or an s3:// prefix
}

// S3Values is an s3 secret resolved.
type S3Values struct {
	KeyID, Secret, Endpoint, Region, URLStyle, Scope string
	UseSSL                                           *bool
}

// s3Parts are what ctx.Secret("NAME.PART") reads of an s3 secret.
var s3Parts = []string{"key_id", "secret", "endpoint", "region", "url_style", "use_ssl", "scope"}

// S3Names are the project's s3 secrets, sorted.
func (s *Store) S3Names() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n, sp := range s.specs {
		if sp.S3 != nil {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// ResolveS3 reads s3 secret name now; its key id and secret are masked from
// then on. Its errors never hold a value.
func (s *Store) ResolveS3(name string) (S3Values, error) {
	if s == nil {
		return S3Values{}, fmt.Errorf("secret %q: %w (this project names no secrets in strata.yaml)", name, ErrUnknown)
	}
	s.mu.Lock()
	sp, ok := s.specs[name]
	s.mu.Unlock()
	if !ok {
		return S3Values{}, fmt.Errorf("secret %q: %w", name, ErrUnknown)
	}
	if sp.S3 == nil {
		return S3Values{}, fmt.Errorf("secret %q is not an s3 secret (kind: s3)", name)
	}
	c := sp.S3
	v := S3Values{Endpoint: c.Endpoint, Region: c.Region, URLStyle: c.URLStyle, Scope: c.Scope, UseSSL: c.UseSSL}
	var err error
	if v.KeyID, err = s.resolveSpec(name+".key_id", c.KeyID); err != nil {
		return S3Values{}, err
	}
	if v.Secret, err = s.resolveSpec(name+".secret", c.Secret); err != nil {
		return S3Values{}, err
	}
	if c.EndpointEnv != "" {
		e, ok := os.LookupEnv(c.EndpointEnv)
		if !ok || e == "" {
			return S3Values{}, fmt.Errorf("secret %q: endpoint: environment variable %s is not set in the environment of strata", name, c.EndpointEnv)
		}
		v.Endpoint = e
	}
	return v, nil
}

// resolveS3Part answers ctx.Secret("NAME.PART") for an s3 secret NAME.
func (s *Store) resolveS3Part(name, part string) (string, error) {
	v, err := s.ResolveS3(name)
	if err != nil {
		return "", err
	}
	switch part {
	case "key_id":
		return v.KeyID, nil
	case "secret":
		return v.Secret, nil
	case "endpoint":
		return v.Endpoint, nil
	case "region":
		return v.Region, nil
	case "url_style":
		return v.URLStyle, nil
	case "scope":
		return v.Scope, nil
	case "use_ssl":
		if v.UseSSL == nil {
			return "", nil
		}
		return fmt.Sprint(*v.UseSSL), nil
	}
	return "", fmt.Errorf("secret %q: an s3 secret has no part %q (parts: %s)", name+"."+part, part, strings.Join(s3Parts, ", "))
}
