package secrets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// Spec says where one secret's value is: exactly one of Env and File, or,
// for an s3 secret (kind: s3), S3 alone.
type Spec struct {
	Env  string // an environment variable of the process that runs blocks
	File string // a file path; ~/ is the home folder, relative is from the project folder
	S3   *S3    // an S3 credential: key id, secret and where the server is (secret_s3.go)
}

// ErrUnknown is wrapped by Resolve's error for a name strata.yaml lacks.
var ErrUnknown = errors.New("unknown secret")

// minLen is the shortest value Resolve hands out: a shorter one could not
// be masked without masking ordinary text.
const minLen = 4

// Mask is what a secret reads as wherever it is masked.
const Mask = "***"

// Store resolves a project's secrets and masks the values it resolved.
// The zero value and nil have no secrets and mask nothing.
type Store struct {
	dir string // the project folder: files inside it are refused

	mu      sync.Mutex
	specs   map[string]Spec
	needles []string // values handed out and their passwords, longest first
}

// New is the store of the project in dir with these secrets.
func New(dir string, specs map[string]Spec) *Store {
	s := &Store{dir: dir}
	s.Set(specs)
	return s
}

// Set replaces the secrets (strata.yaml was reloaded). Values resolved
// before stay masked.
func (s *Store) Set(specs map[string]Spec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.specs = make(map[string]Spec, len(specs))
	for n, sp := range specs {
		s.specs[n] = sp
	}
}

// Names are the secrets the project names, sorted.
func (s *Store) Names() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.specs))
	for n := range s.specs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Resolve reads secret name's value now. Its errors never hold the value.
func (s *Store) Resolve(name string) (string, error) {
	if s == nil {
		return "", fmt.Errorf("secret %q: %w (this project names no secrets in strata.yaml)", name, ErrUnknown)
	}
	s.mu.Lock()
	sp, ok := s.specs[name]
	names := make([]string, 0, len(s.specs))
	for n := range s.specs {
		names = append(names, n)
	}
	s.mu.Unlock()
	if !ok {
		if base, part, dotted := strings.Cut(name, "."); dotted {
			return s.resolveS3Part(base, part)
		}
		sort.Strings(names)
		have := "none"
		if len(names) > 0 {
			have = strings.Join(names, ", ")
		}
		return "", fmt.Errorf("secret %q: %w (strata.yaml secrets: %s)", name, ErrUnknown, have)
	}
	if sp.S3 != nil {
		return "", fmt.Errorf("secret %q is an s3 secret: SQL blocks use it for s3:// paths; a Go block reads its parts as %q, %q, %q and %q",
			name, name+".key_id", name+".secret", name+".endpoint", name+".region")
	}
	return s.resolveSpec(name, sp)
}

// resolveSpec reads one env or file value and remembers it for Mask.
func (s *Store) resolveSpec(name string, sp Spec) (string, error) {
	v, err := s.read(name, sp)
	if err != nil {
		return "", err
	}
	if len(v) < minLen {
		return "", fmt.Errorf("secret %q is shorter than %d characters: it could not be masked in logs and outputs", name, minLen)
	}
	s.remember(v)
	return v, nil
}

func (s *Store) read(name string, sp Spec) (string, error) {
	if sp.Env != "" {
		v, ok := os.LookupEnv(sp.Env)
		if !ok || v == "" {
			return "", fmt.Errorf("secret %q: environment variable %s is not set in the environment of strata", name, sp.Env)
		}
		return v, nil
	}
	path, err := s.filePath(sp.File)
	if err != nil {
		return "", fmt.Errorf("secret %q: %w", name, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("secret %q: %w", name, err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("secret %q: file %s is readable by others (mode %04o): chmod 600 %s", name, path, st.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("secret %q: %w", name, err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// filePath resolves a secret file's path and refuses one inside the
// project folder, whose files are snapshotted, diffed and shown.
func (s *Store) filePath(p string) (string, error) {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		p = filepath.Join(home, rest)
	} else if !filepath.IsAbs(p) {
		p = filepath.Join(s.dir, p)
	}
	p = filepath.Clean(p)
	if s.dir != "" && Inside(s.dir, p) {
		return "", fmt.Errorf("file %s is inside the project folder, whose files are versioned (snapshots, diffs, the editor): keep it outside, for example in ~/.config/strata/", p)
	}
	return p, nil
}

// Inside reports whether path is dir or below it, symbolic links resolved
// where they exist.
func Inside(dir, path string) bool {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	d, p := real(filepath.Clean(dir)), real(filepath.Clean(path))
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
