package warehouse

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/secrets"
)

// LakeOptions put a warehouse's products in a DuckLake instead of the
// embedded file: the catalog in Postgres (or a DuckDB file for one
// machine), the rows as Parquet files under DataPath. Other processes read
// the products while Strata writes (with a Postgres catalog) by attaching
// the same lake.
//
// The warehouse's own catalog tables (_strata.versions, pins, staged
// reviews, run state) are DuckLake tables in the same lake, so each write
// transaction (rows, catalog rows, current flags) is one DuckLake snapshot:
// a version becomes visible to every reader exactly when its snapshot
// commits, as it does in the file. The local DuckDB file at the
// warehouse's path stays: it holds the lock that makes this process the
// lake's only Strata writer, and nothing else.
type LakeOptions struct {
	// Catalog is DuckLake's metadata database: "postgres:dbname=… host=…"
	// (libpq's key=value form) or a file path (x.ducklake).
	Catalog string
	// DataPath is the folder the Parquet files go to, or an S3 prefix
	// (s3://bucket/prefix/) reached with S3's key.
	DataPath string
	// S3 is the key of an s3:// DataPath (the project's s3 secret,
	// resolved): a temporary DuckDB secret in memory only, masked in every
	// error. Nil for a folder.
	S3 *secrets.S3Values
	// S3Secret is the name of the s3 secret S3 came from: what the
	// coordinator tells a worker that writes or reads the bucket itself
	// (lake_s3_files.go), which asks for the key sealed.
	S3Secret string
	// Password is the Postgres catalog's password (from the project's
	// secrets): added to the connection string in memory only, and masked
	// in every error.
	Password string
	// PasswordSecret is the name of the secret Password came from: what
	// the coordinator tells a worker that reads the lake itself
	// (lake_remote_read.go), which asks for it sealed.
	PasswordSecret string
	// OrphanGrace is how old a file under DataPath that the catalog does
	// not know must be before maintenance deletes it (a younger one may be
	// a write under way); zero means DefaultOrphanGrace.
	OrphanGrace time.Duration
	// KeepSnapshots is how long old snapshots stay for time travel before
	// they expire and their files are deleted (lake_maintenance.go); zero
	// means DefaultKeepSnapshots.
	KeepSnapshots time.Duration
	// FileMinRows is the smallest output a worker writes as a file itself
	// (lake_file_output.go); zero means DefaultFileMinRows.
	FileMinRows int
	// Threads is how many threads DuckDB runs a statement on, fixed for
	// the warehouse's life (lake_threads.go); zero means DefaultLakeThreads.
	Threads int
}

// LakeName is the name the lake is attached under in every connection (and
// the default catalog there).
const LakeName = "strata_lake"

// lakeBackend is a warehouse over a DuckLake.
type lakeBackend struct {
	opts     LakeOptions
	readOnly bool
}

func (l *lakeBackend) kind() string           { return "ducklake" }
func (l *lakeBackend) ddl(stmt string) string { return withoutKeys(stmt) }
func (l *lakeBackend) hasKeys() bool          { return false }

// postgres says whether the catalog is a Postgres database.
func (l *lakeBackend) postgres() bool { return strings.HasPrefix(l.opts.Catalog, "postgres:") }

// attachSQL is the ATTACH of the lake, the password inside: never logged.
func (l *lakeBackend) attachSQL() string {
	cat := l.opts.Catalog
	if l.postgres() && l.opts.Password != "" {
		cat += " password=" + l.opts.Password
	}
	opts := "DATA_PATH " + quoteLiteral(l.opts.DataPath)
	if l.readOnly {
		opts += ", READ_ONLY"
	}
	return "ATTACH IF NOT EXISTS " + quoteLiteral("ducklake:"+cat) + " AS " + LakeName + " (" + opts + ")"
}

// initConn loads the extensions the lake needs (LOAD is once per database,
// and a no-op after), attaches the lake (once per database too) and makes
// it this connection's default catalog, so `_strata.versions` and the
// product views resolve inside the lake.
func (l *lakeBackend) initConn(ctx context.Context, c driver.ExecerContext) error {
	stmts := []string{"LOAD ducklake"}
	if l.postgres() {
		stmts = append(stmts, "LOAD "+extensions.Canonical("postgres"))
	}
	if l.opts.S3 != nil {
		stmts = append(stmts, "LOAD httpfs", l.s3SecretSQL())
	}
	stmts = append(stmts, l.attachSQL(), "USE "+LakeName)
	for _, q := range stmts {
		if _, err := c.ExecContext(ctx, q, nil); err != nil {
			msg := l.mask(err.Error())
			if strings.HasPrefix(q, "LOAD") && strings.Contains(msg, "not found") {
				return fmt.Errorf("warehouse kind ducklake needs the DuckDB extension %s: run `strata extensions install DIR --name ducklake --name postgres --name httpfs`: %s", strings.TrimPrefix(q, "LOAD "), msg)
			}
			return fmt.Errorf("attach the DuckLake %s (data %s): %s", l.mask(l.opts.Catalog), l.opts.DataPath, msg)
		}
	}
	return nil
}

// s3SecretSQL makes the data path's key a DuckDB secret: temporary (in
// memory, never in a file), scoped to the data path unless the s3 secret
// names its own scope, so it wins over a SQL block's secrets there.
func (l *lakeBackend) s3SecretSQL() string {
	v := *l.opts.S3
	if v.Scope == "" {
		v.Scope = l.opts.DataPath
	}
	return s3SecretStmt("_lake", v)
}

// mask hides the password and the S3 key in text DuckDB or Postgres hands
// back.
func (l *lakeBackend) mask(s string) string {
	hide := []string{l.opts.Password}
	if l.opts.S3 != nil {
		hide = append(hide, l.opts.S3.KeyID, l.opts.S3.Secret)
	}
	for _, h := range hide {
		if h != "" {
			s = strings.ReplaceAll(s, h, "***")
		}
	}
	return s
}

// checkLake validates the options before anything is opened.
func checkLake(o *LakeOptions) error {
	switch {
	case o.Catalog == "":
		return errors.New("warehouse kind ducklake: catalog is empty (want \"postgres:dbname=… host=…\" or a file name ending .ducklake)")
	case o.DataPath == "":
		return errors.New("warehouse kind ducklake: data_path is empty (want the folder for the Parquet files)")
	case strings.Contains(o.Catalog, "password="):
		return errors.New("warehouse kind ducklake: the catalog holds a password; name a secret in `password:` instead (strata.yaml must not hold credentials)")
	case NeedsS3(o.DataPath) && o.S3 == nil:
		return fmt.Errorf("warehouse kind ducklake: data_path %s is in S3 but no s3 secret gives its key (name one in warehouse.s3_secret)", o.DataPath)
	}
	if !strings.Contains(o.DataPath, "://") {
		if err := os.MkdirAll(o.DataPath, 0o755); err != nil {
			return fmt.Errorf("warehouse kind ducklake: data_path: %w", err)
		}
	}
	return nil
}
