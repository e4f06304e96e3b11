package extensions

import (
	"fmt"
	"regexp"
)

// canonical maps the names a project may use to the file name DuckDB looks
// for. DuckDB resolves `LOAD postgres` to postgres_scanner.duckdb_extension
// and calls that file's entry point by its canonical name, so the postgres
// wheel's postgres.duckdb_extension only loads when installed under it.
var canonical = map[string]string{
	"postgres": "postgres_scanner",
	"sqlite":   "sqlite_scanner",
	"sqlite3":  "sqlite_scanner",
	"http":     "httpfs",
	"https":    "httpfs",
	"s3":       "httpfs",
	"md":       "motherduck",
}

// Canonical is the name DuckDB installs and loads name under.
func Canonical(name string) string {
	if c, ok := canonical[name]; ok {
		return c
	}
	return name
}

// fileNames are the names a file of extension name may carry in a folder or
// wheel: the project's own and the canonical one.
func fileNames(name string) []string {
	c := Canonical(name)
	if c == name {
		return []string{name + ".duckdb_extension"}
	}
	return []string{name + ".duckdb_extension", c + ".duckdb_extension"}
}

var validName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// CheckName refuses what cannot be an extension name (DuckDB's names are
// lower-case identifiers), before it reaches a SQL statement.
func CheckName(name string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("extension name %q: want a lower-case DuckDB extension name such as ducklake, postgres or httpfs", name)
	}
	return nil
}
