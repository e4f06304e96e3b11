package extensions

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// MissingError reports an extension the project names that is not
// installed where DuckDB looks.
type MissingError struct {
	Name string
	Dir  string // where it was looked for
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("DuckDB extension %s is not installed (looked in %s): run `strata extensions install DIR` "+
		"(offline: `strata extensions install DIR --from FOLDER_OR_WHEEL`)", e.Name, e.Dir)
}

// Load LOADs each named extension into db (DuckDB loads into the database,
// so every connection of it sees them). An extension that is not installed
// is a *MissingError.
func Load(ctx context.Context, db *sql.DB, names []string) error {
	for _, name := range names {
		if err := CheckName(name); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "LOAD "+Canonical(name)); err != nil {
			if strings.Contains(err.Error(), "not found") {
				t, terr := targetOf(ctx, db)
				if terr != nil {
					return fmt.Errorf("load extension %s: %w", name, err)
				}
				return &MissingError{Name: name, Dir: t.Dir}
			}
			return fmt.Errorf("load extension %s: %w", name, err)
		}
	}
	return nil
}

// Status is one extension as the folder has it.
type Status struct {
	Name      string `json:"name"`
	Installed bool   `json:"installed"`
	Path      string `json:"path"`
}

// List reports, for each name, whether it is installed in this binary's
// extension folder.
func List(ctx context.Context, names []string) (Target, []Status, error) {
	db, err := openMemory()
	if err != nil {
		return Target{}, nil, err
	}
	defer db.Close()
	t, err := targetOf(ctx, db)
	if err != nil {
		return t, nil, err
	}
	var out []Status
	for _, n := range names {
		if err := CheckName(n); err != nil {
			return t, nil, err
		}
		s := Status{Name: n}
		err := db.QueryRowContext(ctx, `SELECT installed, coalesce(install_path, '') FROM duckdb_extensions() WHERE extension_name = ?`, Canonical(n)).Scan(&s.Installed, &s.Path)
		if err != nil && err != sql.ErrNoRows {
			return t, nil, fmt.Errorf("list extensions: %w", err)
		}
		out = append(out, s)
	}
	return t, out, nil
}
