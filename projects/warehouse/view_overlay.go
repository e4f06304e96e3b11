package warehouse

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// An overlay is a schema of views, one per product, that shows in each
// partition the newest version an owner pinned there and the current
// version elsewhere. It is how an environment is queried (`dev.clv__clv`)
// without copying a row: its own rows are versions staged under its pins,
// every other partition is the product's current one. The warehouse knows
// nothing of environments; it keeps the overlay's views in step with the
// storage tables (a schema change adds a table, retention drops one) in the
// same transaction that rebuilds the main views, as rebuildViews does.
//
//	_strata.overlays              schema_name -> pin owner
//	_strata."pointers__<schema>"  view: (product, partition, version) the
//	                              overlay shows
//	<schema>."<product>"          view: those versions' rows, with _partition
var overlayDDL = []string{
	`CREATE TABLE IF NOT EXISTS _strata.overlays (
		schema_name VARCHAR NOT NULL,
		owner       VARCHAR NOT NULL
	)`,
}

// reservedSchemas cannot hold an overlay: DuckDB's own, and Strata's.
var reservedSchemas = map[string]bool{"main": true, catalogSchema: true, "information_schema": true,
	"pg_catalog": true, "temp": true, "system": true}

// pointersView names an overlay's pointer view.
func pointersView(schema string) string { return qualified("pointers__" + schema) }

// pointersSQL is the DDL of an overlay's pointer view: the newest pinned
// version where the owner pinned one, the current version everywhere else.
func pointersSQL(schema, owner string) string {
	return fmt.Sprintf(`CREATE OR REPLACE VIEW %s AS
WITH pinned AS (SELECT product, partition, max(version) AS version FROM _strata.pins WHERE owner = %s GROUP BY product, partition)
SELECT product, partition, version FROM pinned
UNION ALL
SELECT c.product, c.partition, c.version FROM _strata.current AS c ANTI JOIN pinned AS p ON p.product = c.product AND p.partition = c.partition`,
		pointersView(schema), quoteLiteral(owner))
}

// overlayViewSQL is the DDL of a product's view in an overlay: viewSQL
// joined to the overlay's pointers instead of _strata.current.
func overlayViewSQL(ps *productStorage, schema string) string {
	tables := newestFirst(ps.tables)
	cols := unionSchema(tables)
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE OR REPLACE VIEW %s.%s AS\n", quoteIdent(schema), quoteIdent(ps.name))
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\nUNION ALL\n")
		}
		fmt.Fprintf(&b, "SELECT %s FROM %s AS t JOIN %s AS c ON c.product = %s AND c.partition = t.%s AND c.version = t.%s",
			selectList(t, cols), qualified(t.name), pointersView(schema), quoteLiteral(ps.name), colPartition, colVersion)
	}
	return b.String()
}

// CreateOverlay creates (or recreates) the overlay schema showing owner's
// pinned versions over the current ones, with a view per product.
func (w *Warehouse) CreateOverlay(ctx context.Context, schema, owner string) error {
	if err := validateProduct(schema); err != nil {
		return fmt.Errorf("overlay schema: %w", err)
	}
	if reservedSchemas[strings.ToLower(schema)] {
		return fmt.Errorf("overlay schema %q is reserved", schema)
	}
	if owner == "" {
		return fmt.Errorf("overlay %s: empty pin owner", schema)
	}
	err := w.write(ctx, func(tx *writeTx) error {
		stmts := []string{
			`CREATE SCHEMA IF NOT EXISTS ` + quoteIdent(schema),
			pointersSQL(schema, owner),
		}
		for _, s := range stmts {
			if err := tx.exec(s); err != nil {
				return err
			}
		}
		// No primary key (DuckLake refuses them): replaced by hand.
		if err := tx.exec(`DELETE FROM _strata.overlays WHERE schema_name = ?`, schema); err != nil {
			return err
		}
		if err := tx.exec(`INSERT INTO _strata.overlays VALUES (?, ?)`, schema, owner); err != nil {
			return err
		}
		keys := make([]string, 0, len(tx.w.storage))
		for k := range tx.w.storage {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps := tx.w.storage[k]; ps != nil && len(ps.tables) > 0 {
				if err := tx.exec(overlayViewSQL(ps, schema)); err != nil {
					return fmt.Errorf("view %s.%s: %w", schema, ps.name, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("create overlay %s: %w", schema, err)
	}
	return nil
}

// DropOverlay drops an overlay's schema and views (its pins stay: the
// owner releases them).
func (w *Warehouse) DropOverlay(ctx context.Context, schema string) error {
	err := w.write(ctx, func(tx *writeTx) error {
		if err := tx.exec(`DROP SCHEMA IF EXISTS ` + quoteIdent(schema) + ` CASCADE`); err != nil {
			return err
		}
		if err := tx.exec(`DROP VIEW IF EXISTS ` + pointersView(schema)); err != nil {
			return err
		}
		return tx.exec(`DELETE FROM _strata.overlays WHERE schema_name = ?`, schema)
	})
	if err != nil {
		return fmt.Errorf("drop overlay %s: %w", schema, err)
	}
	return nil
}

// overlays reads the overlay schemas inside the transaction; rebuildViews
// asks only when some product's storage tables changed (rare), so no cache
// has to follow creates and drops.
func (tx *writeTx) overlays() ([]string, error) {
	rows, err := tx.query(`SELECT schema_name FROM _strata.overlays ORDER BY schema_name`)
	if err != nil {
		return nil, fmt.Errorf("read overlays: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// rebuildOverlayViews follows a product's main view into every overlay: ps
// nil (the product is gone) drops the overlay views named name.
func (tx *writeTx) rebuildOverlayViews(schemas []string, name string, ps *productStorage) error {
	for _, s := range schemas {
		q := `DROP VIEW IF EXISTS ` + quoteIdent(s) + `.` + quoteIdent(name)
		if ps != nil && len(ps.tables) > 0 {
			q = overlayViewSQL(ps, s)
		}
		if err := tx.exec(q); err != nil {
			return fmt.Errorf("overlay view %s.%s: %w", s, name, err)
		}
	}
	return nil
}

// OverlayPointers names an overlay's pointer view (product, partition,
// version): what its product views show, for reads that pick versions.
func OverlayPointers(schema string) string { return pointersView(schema) }
