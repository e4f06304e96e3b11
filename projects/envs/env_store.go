package envs

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// Prod is the name of the environment every other one differs from; it
// is not stored, and `--env prod` is the same as no --env.
const Prod = "prod"

const envsDDL = `CREATE TABLE IF NOT EXISTS _strata.envs (
	name       VARCHAR NOT NULL, -- unique: Create checks (DuckLake refuses keys)
	created_at TIMESTAMPTZ NOT NULL,
	created_by VARCHAR NOT NULL DEFAULT '',
	triggers   BOOLEAN NOT NULL DEFAULT false
)`

// Env is one environment and what it holds of its own.
type Env struct {
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy string    `json:"created_by,omitempty"`
	// Triggers: the pipelines' triggers launch their work into it too
	// (a copy of prod's, staged here); false: they run in prod only.
	Triggers bool `json:"triggers"`
	// Partitions and Rows count the versions it points at that prod does
	// not: zero for an environment with nothing changed.
	Partitions int   `json:"partitions"`
	Products   int   `json:"products"`
	Rows       int64 `json:"rows"`
	// LastPromote is its latest promote not rolled back (Get fills it):
	// what Rollback with no batch undoes.
	LastPromote *Promoted `json:"last_promote,omitempty"`
}

// Promoted is one promote of an environment, as its switch batch logged it.
type Promoted struct {
	Batch      string    `json:"batch"`
	At         time.Time `json:"at"`
	Partitions int       `json:"partitions"`
}

// Store manages the environments of one warehouse.
type Store struct {
	wh  *warehouse.Warehouse
	eng *engine.Engine
}

// New is a Store over wh and eng; it writes nothing until asked to.
func New(wh *warehouse.Warehouse, eng *engine.Engine) *Store { return &Store{wh: wh, eng: eng} }

// ErrNotFound is wrapped by the error for an environment that does not exist.
var ErrNotFound = errors.New("no such environment")

// ErrExists is wrapped by Create's error for a name already taken.
var ErrExists = errors.New("environment exists")

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// reserved names would shadow prod or a schema DuckDB or Strata uses.
var reserved = map[string]bool{Prod: true, "main": true, "_strata": true, "information_schema": true,
	"pg_catalog": true, "temp": true, "system": true, "memory": true}

// ValidateName refuses a name that cannot be an environment (and a schema).
func ValidateName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("environment name %q: want a lower-case letter, then up to 39 letters, digits or underscores (such as dev)", name)
	}
	if reserved[name] {
		return fmt.Errorf("environment name %q is reserved", name)
	}
	return nil
}

// Owner is the pin owner under which an environment holds its versions.
func Owner(name string) string { return "env:" + name }

// CreateOptions tune a new environment.
type CreateOptions struct {
	Actor string
	// Triggers asks for a copy of every trigger firing's work.
	Triggers bool
}

// Create makes an environment that starts as prod: it holds nothing.
func (s *Store) Create(ctx context.Context, name string, opt CreateOptions) (*Env, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	db := s.wh.DB()
	if _, err := db.ExecContext(ctx, envsDDL); err != nil {
		return nil, fmt.Errorf("create environment %s: %w", name, err)
	}
	if _, err := s.Get(ctx, name); err == nil {
		return nil, fmt.Errorf("environment %s already exists (strata env discard drops it): %w", name, ErrExists)
	}
	now := time.Now().UTC()
	// The views first: an environment listed is always queryable.
	if err := s.wh.CreateOverlay(ctx, name, Owner(name)); err != nil {
		return nil, err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO _strata.envs (name, created_at, created_by, triggers) VALUES (?, ?, ?, ?)`, name, now, opt.Actor, opt.Triggers); err != nil {
		return nil, fmt.Errorf("create environment %s: %w", name, err)
	}
	return s.Get(ctx, name)
}

// exists says whether the envs table is there (a read-only open of a
// file no environment was ever created in has none).
func (s *Store) exists(ctx context.Context) (bool, error) {
	var n int
	err := s.wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM duckdb_tables() WHERE schema_name = '_strata' AND table_name = 'envs'`).Scan(&n)
	return n > 0, err
}

// List returns every environment, by name, with what each holds.
func (s *Store) List(ctx context.Context) ([]Env, error) {
	return s.list(ctx, "")
}

// Get returns one environment.
func (s *Store) Get(ctx context.Context, name string) (*Env, error) {
	if err := ValidateName(name); err != nil {
		return nil, err
	}
	out, err := s.list(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(out) == 1 {
		if out[0].LastPromote, err = s.lastPromote(ctx, name); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("environment %q does not exist (strata env list shows them; strata env create makes one): %w", name, ErrNotFound)
	}
	return &out[0], nil
}

func (s *Store) list(ctx context.Context, name string) ([]Env, error) {
	out := []Env{}
	if ok, err := s.exists(ctx); err != nil || !ok {
		return out, err
	}
	where, args := "", []any{}
	if name != "" {
		where, args = "WHERE e.name = ?", append(args, name)
	}
	// What an environment holds of its own: its newest pinned version per
	// partition (an older one rebuilt since is not what it points at).
	rows, err := s.wh.DB().QueryContext(ctx, `WITH own AS (
			SELECT p.owner, p.product, p.partition, max(p.version) AS version FROM _strata.pins p
			WHERE starts_with(p.owner, 'env:') GROUP BY ALL)
		SELECT e.name, e.created_at, e.created_by, e.triggers, count(v.version), count(DISTINCT v.product), coalesce(sum(v.row_count), 0)
		FROM _strata.envs e
		LEFT JOIN own o ON o.owner = 'env:' || e.name
		LEFT JOIN _strata.versions v ON v.product = o.product AND v.partition = o.partition AND v.version = o.version
		`+where+` GROUP BY e.name, e.created_at, e.created_by, e.triggers ORDER BY e.name`, args...)
	if err != nil {
		return nil, fmt.Errorf("list environments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Env
		if err := rows.Scan(&e.Name, &e.CreatedAt, &e.CreatedBy, &e.Triggers, &e.Partitions, &e.Products, &e.Rows); err != nil {
			return nil, err
		}
		e.CreatedAt = e.CreatedAt.UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// TriggerOwners are the pin owners of the environments that asked for the
// triggers' work (launcher.Config.Into).
func (s *Store) TriggerOwners(ctx context.Context) ([]string, error) {
	list, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range list {
		if e.Triggers {
			out = append(out, Owner(e.Name))
		}
	}
	return out, nil
}

// Resolve checks that name is an environment and returns its pin owner;
// "" and "prod" are prod, whose owner is "".
func (s *Store) Resolve(ctx context.Context, name string) (string, error) {
	if name == "" || name == Prod {
		return "", nil
	}
	if _, err := s.Get(ctx, name); err != nil {
		return "", err
	}
	return Owner(name), nil
}

// Discard drops an environment: the versions it staged that prod does not
// point at, its pins and its views. Prod is untouched. It returns how many
// versions it dropped.
func (s *Store) Discard(ctx context.Context, name string) (int, error) {
	if _, err := s.Get(ctx, name); err != nil {
		return 0, err
	}
	owner := Owner(name)
	if err := s.wh.DropOverlay(ctx, name); err != nil {
		return 0, err
	}
	refs, err := s.ownVersions(ctx, owner)
	if err != nil {
		return 0, err
	}
	if len(refs) > 0 {
		if err := s.wh.Discard(ctx, refs); err != nil {
			return 0, fmt.Errorf("discard environment %s: %w", name, err)
		}
	}
	if err := s.wh.Unpin(ctx, owner); err != nil {
		return 0, err
	}
	if _, err := s.wh.DB().ExecContext(ctx, `DELETE FROM _strata.envs WHERE name = ?`, name); err != nil {
		return 0, fmt.Errorf("discard environment %s: %w", name, err)
	}
	return len(refs), nil
}

// ownVersions are every version owner pinned that still exists and is not
// current (the rebuilt-over ones too): what a discard drops.
func (s *Store) ownVersions(ctx context.Context, owner string) ([]warehouse.VersionRef, error) {
	rows, err := s.wh.DB().QueryContext(ctx, `SELECT DISTINCT p.product, p.partition, p.version FROM _strata.pins p
		JOIN _strata.versions v ON v.product = p.product AND v.partition = p.partition AND v.version = p.version
		WHERE p.owner = ? AND NOT v.is_current ORDER BY 1, 2, 3`, owner)
	if err != nil {
		return nil, fmt.Errorf("versions of %s: %w", owner, err)
	}
	defer rows.Close()
	var out []warehouse.VersionRef
	for rows.Next() {
		var r warehouse.VersionRef
		if err := rows.Scan(&r.Product, &r.Partition, &r.Version); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// RunInto aims a run at the environment owner names: its versions are
// staged there, its upstream reads go through it first.
func RunInto(opt *engine.RunOptions, owner string) {
	if owner == "" {
		return
	}
	opt.Stage, opt.Pin, opt.PreferPinned = true, owner, owner
}

// IsNotFound reports whether err names a missing environment.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
