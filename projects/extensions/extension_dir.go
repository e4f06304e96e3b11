package extensions

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// DirEnv names the environment variable that moves the extension folder
// (DuckDB's extension_directory) away from ~/.duckdb/extensions: for a
// machine whose home is not writable, or a test that must not touch it.
const DirEnv = "STRATA_EXTENSION_DIR"

// DSNOptions are the DuckDB settings every database Strata opens starts
// with, as a DSN query string: no extension is downloaded or loaded behind
// the project's back, and extensions are looked up where Install put them.
func DSNOptions() string {
	opts := "autoinstall_known_extensions=false&autoload_known_extensions=false"
	if dir := os.Getenv(DirEnv); dir != "" {
		opts += "&extension_directory=" + url.QueryEscape(dir)
	}
	return opts
}

// Target is where the linked DuckDB installs and loads extensions.
type Target struct {
	Version  string // DuckDB's version, "v1.5.5": extension files are built for one
	Platform string // "linux_amd64"
	Dir      string // the folder holding <name>.duckdb_extension files
}

// openMemory opens an in-memory DuckDB with Strata's settings: the
// installer's database, and the one Target asks.
func openMemory() (*sql.DB, error) {
	connector, err := duckdb.NewConnector("?"+DSNOptions(), nil)
	if err != nil {
		return nil, fmt.Errorf("open DuckDB: %w", err)
	}
	return sql.OpenDB(connector), nil
}

// targetOf asks db which DuckDB it is and where its extensions go.
func targetOf(ctx context.Context, db *sql.DB) (Target, error) {
	var t Target
	var base string
	err := db.QueryRowContext(ctx, `SELECT version(), current_setting('extension_directory')`).Scan(&t.Version, &base)
	if err != nil {
		return t, fmt.Errorf("ask DuckDB for its version: %w", err)
	}
	if err := db.QueryRowContext(ctx, `PRAGMA platform`).Scan(&t.Platform); err != nil {
		return t, fmt.Errorf("ask DuckDB for its platform: %w", err)
	}
	if base == "" {
		// DuckDB's default, under the home folder it reads from $HOME.
		home, err := os.UserHomeDir()
		if err != nil {
			return t, fmt.Errorf("find the DuckDB extension folder: %w (set %s)", err, DirEnv)
		}
		base = filepath.Join(home, ".duckdb", "extensions")
	}
	base = strings.TrimSuffix(base, string(filepath.Separator))
	t.Dir = filepath.Join(base, t.Version, t.Platform)
	return t, nil
}

// CurrentTarget is where this binary's DuckDB looks for extensions.
func CurrentTarget(ctx context.Context) (Target, error) {
	db, err := openMemory()
	if err != nil {
		return Target{}, err
	}
	defer db.Close()
	return targetOf(ctx, db)
}
