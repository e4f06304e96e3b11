package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"
)

// Owner is the name of whoever holds the single token of `strata start`
// (or serves with --no-auth): the admin of a one-person install.
const Owner = "owner"

// User is one named user. Its token is never stored, only its hash.
type User struct {
	Name      string     `json:"name"`
	Role      Role       `json:"role"`
	CreatedAt time.Time  `json:"created_at"`
	CreatedBy string     `json:"created_by,omitempty"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	RevokedBy string     `json:"revoked_by,omitempty"`
	// TokenSHA256 is the hex SHA-256 of the token; never sent to clients.
	TokenSHA256 string `json:"token_sha256,omitempty"`
}

// Active reports whether the user's token is accepted.
func (u *User) Active() bool { return u.RevokedAt == nil }

// Public is the user without its token hash, for lists and the API.
func (u User) Public() User { u.TokenSHA256 = ""; return u }

// Principal is who made a request: a user's name and role.
type Principal struct {
	Name string `json:"name"`
	Role Role   `json:"role"`
}

// UsersFile is where a project's users are kept.
func UsersFile(projectDir string) string { return filepath.Join(projectDir, ".strata", "users.json") }

// ErrNotFound is returned for a user name that is not in the store.
var ErrNotFound = errors.New("no such user")

// ErrExists is returned by Add for an active user of the same name.
var ErrExists = errors.New("user exists")

var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@+-]{0,63}$`)

// CheckName says what is wrong with a user name, if anything.
func CheckName(name string) error {
	if name == Owner {
		return fmt.Errorf("user name %q is reserved for the holder of the server's own token", name)
	}
	if !namePattern.MatchString(name) {
		return fmt.Errorf("user name %q: want 1 to 64 letters, digits or . _ @ + - (starting with a letter or digit)", name)
	}
	return nil
}

type usersFile struct {
	Users []User `json:"users"`
}

// Store is the users of one project, kept in UsersFile. It is safe for
// concurrent use and for use by several processes: writes take a file lock
// and replace the file atomically; reads reload it when it changed on disk.
type Store struct {
	path string
	now  func() time.Time

	mu    sync.Mutex
	users []User
	stamp fileStamp
}

type fileStamp struct {
	mod  time.Time
	size int64
	ok   bool
}

// OpenStore opens the users of the project in dir. A missing file is an
// empty store (a one-person install).
func OpenStore(projectDir string) (*Store, error) {
	s := &Store{path: UsersFile(projectDir), now: time.Now}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return nil, err
	}
	return s, nil
}

// reloadLocked reads the file when its size or time changed.
func (s *Store) reloadLocked() error {
	fi, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		s.users, s.stamp = nil, fileStamp{}
		return nil
	}
	if err != nil {
		return fmt.Errorf("users: %w", err)
	}
	st := fileStamp{mod: fi.ModTime(), size: fi.Size(), ok: true}
	if st == s.stamp {
		return nil
	}
	b, err := os.ReadFile(s.path)
	if err != nil {
		return fmt.Errorf("users: %w", err)
	}
	var f usersFile
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("users: %s is not a users file: %w", s.path, err)
	}
	s.users, s.stamp = f.Users, st
	return nil
}

// Authenticate returns the active user whose token this is. Every stored
// hash is compared, in constant time, whatever matched first.
func (s *Store) Authenticate(token string) (Principal, bool) {
	if token == "" {
		return Principal{}, false
	}
	sum := sha256.Sum256([]byte(token))
	s.mu.Lock()
	defer s.mu.Unlock()
	// A file that cannot be read now keeps the last good copy: a half
	// written file must not log everyone out (writes are atomic renames, so
	// this is an edit by hand gone wrong).
	_ = s.reloadLocked()
	var found Principal
	ok := false
	for i := range s.users {
		u := &s.users[i]
		want, err := hex.DecodeString(u.TokenSHA256)
		if err != nil || len(want) != len(sum) {
			continue
		}
		if subtle.ConstantTimeCompare(sum[:], want) == 1 && u.Active() {
			found, ok = Principal{Name: u.Name, Role: u.Role}, true
		}
	}
	return found, ok
}

// RoleOf is the role of the active user of this name: how a browser login
// whose provider names a user of the project finds its role.
func (s *Store) RoleOf(name string) (Role, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.reloadLocked() // as Authenticate: keep the last good copy
	for i := range s.users {
		if u := &s.users[i]; u.Name == name && u.Active() {
			return u.Role, true
		}
	}
	return None, false
}

// List returns the users (revoked ones too), by name, without token hashes.
func (s *Store) List() ([]User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return nil, err
	}
	out := make([]User, 0, len(s.users))
	for _, u := range s.users {
		out = append(out, u.Public())
	}
	slices.SortFunc(out, func(a, b User) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out, nil
}

// NewToken returns a fresh user token: 32 random bytes, hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Add creates a user and returns its token, which is not kept anywhere:
// the caller shows it once. A revoked user of the same name is replaced.
func (s *Store) Add(name string, role Role, by string) (User, string, error) {
	if err := CheckName(name); err != nil {
		return User{}, "", err
	}
	if role == None {
		return User{}, "", errors.New("a user needs a role: viewer, editor, operator or admin")
	}
	tok, err := NewToken()
	if err != nil {
		return User{}, "", err
	}
	sum := sha256.Sum256([]byte(tok))
	u := User{Name: name, Role: role, CreatedAt: s.now().UTC(), CreatedBy: by, TokenSHA256: hex.EncodeToString(sum[:])}
	err = s.update(func(users []User) ([]User, error) {
		for i := range users {
			if users[i].Name == name {
				if users[i].Active() {
					return nil, fmt.Errorf("%w: %q is already a user (revoke it first to give it a new token)", ErrExists, name)
				}
				users[i] = u
				return users, nil
			}
		}
		return append(users, u), nil
	})
	if err != nil {
		return User{}, "", err
	}
	return u.Public(), tok, nil
}

// Revoke stops a user's token from working. The user stays listed, with
// when and by whom it was revoked.
func (s *Store) Revoke(name, by string) (User, error) {
	var out User
	err := s.update(func(users []User) ([]User, error) {
		for i := range users {
			if users[i].Name == name && users[i].Active() {
				t := s.now().UTC()
				users[i].RevokedAt, users[i].RevokedBy = &t, by
				out = users[i].Public()
				return users, nil
			}
		}
		return nil, fmt.Errorf("%w: %q (see `strata users list`)", ErrNotFound, name)
	})
	return out, err
}

// update applies change to the users on disk under the file lock and
// writes them back atomically (a temporary file renamed over the old one).
func (s *Store) update(change func([]User) ([]User, error)) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("users: %w", err)
	}
	unlock, err := lockFile(s.path + ".lock")
	if err != nil {
		return fmt.Errorf("users: lock: %w", err)
	}
	defer unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stamp = fileStamp{} // read it again: another process may have written it
	if err := s.reloadLocked(); err != nil {
		return err
	}
	users, err := change(slices.Clone(s.users))
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(usersFile{Users: users}, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.path), ".users-*.json")
	if err != nil {
		return fmt.Errorf("users: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("users: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("users: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("users: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return fmt.Errorf("users: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path); err != nil {
		return fmt.Errorf("users: %w", err)
	}
	s.stamp = fileStamp{}
	return s.reloadLocked()
}
