package warehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
)

// layoutVersion is written to _strata.meta; a file written by a newer layout
// is refused rather than misread, an older one is migrated. Layout 2 keeps
// the current pointer as a flag on the version row instead of a table of its
// own: a publish touches one catalog table, not two (a statement fewer and a
// cheaper commit).
const layoutVersion = 2

// catalogSchema is the schema holding the catalog and the storage tables.
const catalogSchema = "_strata"

// Internal columns of every storage table.
const (
	colPartition = PartitionColumn
	colVersion   = "_version"
)

var metaDDL = []string{
	`CREATE SCHEMA IF NOT EXISTS _strata`,
	`CREATE TABLE IF NOT EXISTS _strata.meta (
		key   VARCHAR PRIMARY KEY,
		value VARCHAR NOT NULL
	)`,
}

// versionsDDL is the catalog of versions; migrateLayout1 recreates it too.
const versionsDDL = `CREATE TABLE IF NOT EXISTS _strata.versions (
		product         VARCHAR NOT NULL,
		partition       VARCHAR NOT NULL,
		partition_start TIMESTAMPTZ NOT NULL,
		partition_end   TIMESTAMPTZ NOT NULL,
		version         INTEGER NOT NULL,
		run_id          VARCHAR NOT NULL,
		code_hash       VARCHAR NOT NULL,
		upstream        JSON NOT NULL,
		row_count       BIGINT NOT NULL,
		schema          JSON NOT NULL,
		created_at      TIMESTAMPTZ NOT NULL,
		storage_table   VARCHAR NOT NULL,
		is_current      BOOLEAN NOT NULL,
		PRIMARY KEY (product, partition, version)
	)`

// layout2Columns are the versions columns of layout 2, in order.
const layout2Columns = `product, partition, partition_start, partition_end, version, run_id, code_hash,
	upstream, row_count, schema, created_at, storage_table, is_current`

var catalogDDL = []string{
	versionsDDL,
	// At most one version of a partition has is_current (the writer keeps
	// it so); readers join this view as they would a table.
	`CREATE VIEW IF NOT EXISTS _strata.current AS
		SELECT product, partition, version FROM _strata.versions WHERE is_current`,
	`CREATE TABLE IF NOT EXISTS _strata.discarded (
		product     VARCHAR NOT NULL,
		partition   VARCHAR NOT NULL,
		max_version INTEGER NOT NULL,
		PRIMARY KEY (product, partition)
	)`,
	// A version's content hash (content_hash.go) came after layout 2's
	// first release; a file written before has NULL there, which the diff
	// reads as "unknown" and compares rows instead.
	`ALTER TABLE _strata.versions ADD COLUMN IF NOT EXISTS content_hash VARCHAR`,
	// So did each version's snapshot (the pipeline version that computed
	// it; '' before) and based_on (the current version it was planned to
	// replace, which a compare-and-set publish or promote checks; 0 before).
	`ALTER TABLE _strata.versions ADD COLUMN IF NOT EXISTS snapshot VARCHAR DEFAULT ''`,
	`ALTER TABLE _strata.versions ADD COLUMN IF NOT EXISTS based_on INTEGER DEFAULT 0`,
	// And the order in which the run handed the block its upstreams (a Go
	// Transform's parameters), which upstream, a map, cannot say; NULL
	// before (nothing to compare the order with).
	`ALTER TABLE _strata.versions ADD COLUMN IF NOT EXISTS inputs JSON`,
	// And whether a version was ever current (written current, promoted,
	// or put back), so that a rollback can refuse a version only ever
	// staged: that one becomes current through its review's promote only.
	// NULL before (unknown: a rollback allows it, as it did).
	`ALTER TABLE _strata.versions ADD COLUMN IF NOT EXISTS ever_current BOOLEAN`,
	`CREATE TABLE IF NOT EXISTS _strata.storage (
		table_name VARCHAR PRIMARY KEY,
		product    VARCHAR NOT NULL,
		schema     JSON NOT NULL,
		created_at TIMESTAMPTZ NOT NULL
	)`,
}

// initCatalog creates the catalog (idempotent), migrates an older layout and
// refuses a newer one.
func (w *Warehouse) initCatalog(ctx context.Context) error {
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return err
	}
	err = func() error {
		for _, stmt := range metaDDL {
			if _, err := conn.ExecContext(ctx, w.backend.ddl(stmt)); err != nil {
				return fmt.Errorf("create catalog: %w", err)
			}
		}
		var v string
		err := conn.QueryRowContext(ctx, `SELECT value FROM _strata.meta WHERE key = 'layout'`).Scan(&v)
		switch {
		case err == sql.ErrNoRows:
			v = fmt.Sprint(layoutVersion)
			if _, err := conn.ExecContext(ctx, `INSERT INTO _strata.meta VALUES ('layout', ?)`, v); err != nil {
				return err
			}
		case err != nil:
			return err
		case v == "1":
			if err := migrateLayout1(ctx, conn); err != nil {
				return fmt.Errorf("migrate catalog layout 1 to %d: %w", layoutVersion, err)
			}
		case v != fmt.Sprint(layoutVersion):
			return fmt.Errorf("catalog layout %s is not supported by this strata (layout %d); use a matching strata version", v, layoutVersion)
		}
		for _, stmt := range slices.Concat(catalogDDL, switchDDL, rollbackDDL, stateDDL, exportDDL, ownerDDL, overlayDDL, creditDDL) {
			if _, err := conn.ExecContext(ctx, w.backend.ddl(stmt)); err != nil {
				return fmt.Errorf("create catalog: %w", err)
			}
		}
		return nil
	}()
	if err != nil {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	_, err = conn.ExecContext(context.WithoutCancel(ctx), "COMMIT")
	return err
}

// migrateLayout1 folds layout 1's _strata.current table into the versions'
// is_current flag, inside initCatalog's transaction. DuckDB cannot alter a
// table that has an index, so the versions are copied out and back in.
func migrateLayout1(ctx context.Context, conn *sql.Conn) error {
	steps := []string{
		`CREATE TEMP TABLE strata_versions_v1 AS
			SELECT v.*, c.version IS NOT NULL AS is_current FROM _strata.versions v
			LEFT JOIN _strata.current c ON c.product = v.product AND c.partition = v.partition AND c.version = v.version`,
		`DROP TABLE _strata.current`,
		`DROP TABLE _strata.versions`,
		versionsDDL,
		`INSERT INTO _strata.versions (` + layout2Columns + `) SELECT * FROM temp.strata_versions_v1`,
		`DROP TABLE temp.strata_versions_v1`,
		`UPDATE _strata.meta SET value = '` + fmt.Sprint(layoutVersion) + `' WHERE key = 'layout'`,
	}
	for _, q := range steps {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// productStorage is what the writer remembers about a product: its name as
// first published and its storage tables in creation order.
type productStorage struct {
	name   string
	tables []storageTable
}

type storageTable struct {
	name   string
	schema []sdk.Field
}

func (p *productStorage) clone() *productStorage {
	return &productStorage{name: p.name, tables: append([]storageTable(nil), p.tables...)}
}

func (p *productStorage) table(name string) (storageTable, bool) {
	for _, t := range p.tables {
		if t.name == name {
			return t, true
		}
	}
	return storageTable{}, false
}

// loadStorage reads _strata.storage into the writer's map.
func loadStorage(ctx context.Context, q querier) (map[string]*productStorage, error) {
	rows, err := q.QueryContext(ctx, `SELECT table_name, product, schema::VARCHAR FROM _strata.storage ORDER BY created_at, table_name`)
	if err != nil {
		return nil, fmt.Errorf("load storage tables: %w", err)
	}
	defer rows.Close()
	out := map[string]*productStorage{}
	for rows.Next() {
		var name, product, schemaJSON string
		if err := rows.Scan(&name, &product, &schemaJSON); err != nil {
			return nil, err
		}
		schema, err := decodeSchema(schemaJSON)
		if err != nil {
			return nil, fmt.Errorf("storage table %s: %w", name, err)
		}
		key := strings.ToLower(product)
		ps := out[key]
		if ps == nil {
			ps = &productStorage{name: product}
			out[key] = ps
		}
		ps.tables = append(ps.tables, storageTable{name: name, schema: schema})
	}
	return out, rows.Err()
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

var productNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validateProduct checks a product name: it becomes a view name and part of
// storage table names.
func validateProduct(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("product name is empty")
	case len(name) > 100:
		return fmt.Errorf("product name %q is longer than 100 characters", name)
	case !productNameRE.MatchString(name):
		return fmt.Errorf("product name %q is not an identifier (want letters, digits and _, not starting with a digit)", name)
	case strings.HasPrefix(strings.ToLower(name), "_strata"):
		return fmt.Errorf("product name %q uses the reserved prefix _strata", name)
	}
	return nil
}

func validatePartition(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("partition key is empty")
	case len(key) > 200:
		return fmt.Errorf("partition key %q is longer than 200 characters", key)
	}
	return nil
}

// tableSchema validates t and returns its schema. Column names are matched
// case-insensitively by DuckDB, and _partition/_version are taken.
func tableSchema(t *sdk.Table) ([]sdk.Field, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("invalid table: %w", err)
	}
	schema := t.Schema()
	seen := make(map[string]string, len(schema))
	for _, f := range schema {
		lower := strings.ToLower(f.Name)
		if lower == colPartition || lower == colVersion {
			return nil, fmt.Errorf("column %q is reserved for the warehouse (rename it)", f.Name)
		}
		if prev, dup := seen[lower]; dup {
			return nil, fmt.Errorf("columns %q and %q differ only in case; DuckDB would treat them as one", prev, f.Name)
		}
		seen[lower] = f.Name
	}
	return schema, nil
}

type schemaField struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Precision uint8  `json:"precision,omitempty"`
	Scale     uint8  `json:"scale,omitempty"`
}

func encodeSchema(schema []sdk.Field) string {
	out := make([]schemaField, len(schema))
	for i, f := range schema {
		out[i] = schemaField{f.Name, f.Type.String(), f.Precision, f.Scale}
	}
	b, _ := json.Marshal(out) // strings only: cannot fail
	return string(b)
}

func decodeSchema(s string) ([]sdk.Field, error) {
	var in []schemaField
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, fmt.Errorf("decode schema %q: %w", s, err)
	}
	out := make([]sdk.Field, len(in))
	for i, f := range in {
		t, err := sdk.ParseType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("decode schema column %q: %w", f.Name, err)
		}
		out[i] = sdk.Field{Name: f.Name, Type: t, Precision: f.Precision, Scale: f.Scale}
	}
	return out, nil
}

// storageTableName is "<product>__<first 8 hex digits of sha256(schema)>".
// Column order is part of the schema: a reordered output starts a new table,
// which keeps reading a single version a plain SELECT *.
func storageTableName(product string, schema []sdk.Field) string {
	sum := sha256.Sum256([]byte(encodeSchema(schema)))
	return product + "__" + hex.EncodeToString(sum[:4])
}

// createStorageSQL is the DDL of a storage table.
func createStorageSQL(table string, schema []sdk.Field) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (%s VARCHAR NOT NULL, %s INTEGER NOT NULL", qualified(table), colPartition, colVersion)
	for _, f := range schema {
		fmt.Fprintf(&b, ", %s %s", quoteIdent(f.Name), duckType(f))
	}
	b.WriteString(")")
	return b.String()
}

// qualified names a storage table in the catalog schema.
func qualified(table string) string { return catalogSchema + "." + quoteIdent(table) }

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// checkLayout is initCatalog for a read-only open: it changes nothing, so a
// file of an older layout (which initCatalog would migrate) is refused with
// what to do rather than misread.
func checkLayout(ctx context.Context, db *sql.DB) error {
	var v string
	if err := db.QueryRowContext(ctx, `SELECT value FROM _strata.meta WHERE key = 'layout'`).Scan(&v); err != nil {
		return fmt.Errorf("read the catalog layout: %w (is this a strata warehouse?)", err)
	}
	if v != fmt.Sprint(layoutVersion) {
		return fmt.Errorf("catalog layout %s: this strata reads layout %d; a command that writes (strata run, strata start) migrates an older file, and a newer one needs a newer strata", v, layoutVersion)
	}
	return nil
}

// PartitionColumn leads every read of a product: the partition key of each
// row. It is the warehouse's bookkeeping; blocks never see it as an input.
const PartitionColumn = "_partition"
