package auth

import "fmt"

// Role is what a user may do. Roles are ordered: each one may do everything
// the ones below it may.
type Role int

// The roles, least first. None is no role at all (an unknown route).
const (
	None Role = iota
	// Viewer reads pages, previews, diffs, runs and backfills.
	Viewer
	// Editor also edits project files and runs cells in the editor (drafts,
	// never published data).
	Editor
	// Operator also launches runs and backfills, promotes, discards, rolls
	// back, cancels and pauses, and fires or pauses triggers: everything that
	// changes published data or what runs on its own.
	Operator
	// Admin also manages users and project settings.
	Admin
	// Public marks what needs no token at all (/healthz, the static
	// frontend); no user has it.
	Public
)

var roleNames = [...]string{None: "none", Viewer: "viewer", Editor: "editor", Operator: "operator", Admin: "admin", Public: "public"}

// Roles lists the assignable roles, least first.
var Roles = []Role{Viewer, Editor, Operator, Admin}

func (r Role) String() string {
	if r < 0 || int(r) >= len(roleNames) {
		return fmt.Sprintf("role(%d)", int(r))
	}
	return roleNames[r]
}

// Allows reports whether a user of role r may do what needs role need.
// None is never allowed: a route missing from the table is refused to all.
func (r Role) Allows(need Role) bool {
	return need == Public || need != None && r >= need && r <= Admin
}

// ParseRole reads a role name.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if roleNames[r] == s {
			return r, nil
		}
	}
	return None, fmt.Errorf("role %q: want viewer, editor, operator or admin", s)
}

// MarshalText writes the role's name (JSON, YAML).
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role's name.
func (r *Role) UnmarshalText(b []byte) error {
	v, err := ParseRole(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}
