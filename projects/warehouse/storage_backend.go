package warehouse

import (
	"context"
	"database/sql/driver"
	"regexp"
)

// backend is where a warehouse keeps its tables: the embedded DuckDB file
// (duckFile, the default) or a DuckLake (lakeBackend, lake_backend.go). The
// rest of the package writes one SQL and asks the backend only for what the
// two differ in, so neither the engine nor the warehouse's own code knows
// which one it talks to.
//
// Measured against DuckDB 1.5.5 with its ducklake extension: a DuckLake
// refuses PRIMARY KEY and UNIQUE constraints (and so INSERT OR REPLACE and
// ON CONFLICT), indexes and sequences; it accepts schemas, views, ALTER
// TABLE ADD COLUMN, UPDATE, DELETE, temporary tables, the appender and
// multi-statement transactions. The warehouse uses constraints only as a
// second guard: its single writer already keeps keys unique.
type backend interface {
	// initConn prepares each new connection of the pool (a DuckLake is
	// attached and made the default catalog, which DuckDB keeps per
	// connection).
	initConn(ctx context.Context, c driver.ExecerContext) error
	// ddl adapts a CREATE TABLE of the catalog to what the backend accepts.
	ddl(stmt string) string
	// hasKeys says whether the backend enforces PRIMARY KEYs, so INSERT OR
	// REPLACE can replace; without them a replace is a DELETE and an INSERT.
	hasKeys() bool
	// kind names the backend in errors and the health report.
	kind() string
}

// duckFile is the embedded DuckDB file: everything as written.
type duckFile struct{}

func (duckFile) initConn(context.Context, driver.ExecerContext) error { return nil }
func (duckFile) ddl(stmt string) string                               { return stmt }
func (duckFile) hasKeys() bool                                        { return true }
func (duckFile) kind() string                                         { return "duckdb" }

var (
	tableKeyRE  = regexp.MustCompile(`(?i),\s*PRIMARY\s+KEY\s*\([^)]*\)`)
	columnKeyRE = regexp.MustCompile(`(?i)\s+PRIMARY\s+KEY\b`)
)

// withoutKeys drops the PRIMARY KEY clauses of a CREATE TABLE; a column key
// stays NOT NULL, as a key implies.
func withoutKeys(stmt string) string {
	stmt = tableKeyRE.ReplaceAllString(stmt, "")
	return columnKeyRE.ReplaceAllString(stmt, " NOT NULL")
}
