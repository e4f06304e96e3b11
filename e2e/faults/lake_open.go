package faults

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/secrets"
)

// openLake opens the DuckLake a project's strata.yaml names (warehouse:
// {kind: ducklake}) as any other DuckDB process would: attached read-only
// and made the default catalog, so the suite's queries of _strata.versions
// and the product views read the lake. ok is false for a project on the
// embedded file.
func openLake(projectDir string) (w *warehouse, ok bool, err error) {
	p, err := project.Load(projectDir)
	if err != nil || !p.Warehouse.Lake() {
		return nil, false, nil
	}
	wc := p.Warehouse
	cat := wc.Catalog
	if wc.Password != "" {
		pw, err := secrets.New(p.Dir, p.Secrets).Resolve(wc.Password)
		if err != nil {
			return nil, true, err
		}
		cat += " password=" + pw
	}
	stmts := []string{"LOAD ducklake", "LOAD postgres_scanner"}
	if wc.S3Secret != "" {
		// The data is in a bucket: its key as a temporary secret, as any
		// reader of the lake has it.
		v, err := secrets.New(p.Dir, p.Secrets).ResolveS3(wc.S3Secret)
		if err != nil {
			return nil, true, err
		}
		stmts = append(stmts, "LOAD httpfs", fmt.Sprintf("CREATE TEMPORARY SECRET lake_s3 (TYPE s3, KEY_ID '%s', SECRET '%s', ENDPOINT '%s', REGION '%s', URL_STYLE 'path', USE_SSL false, SCOPE '%s')",
			v.KeyID, v.Secret, v.Endpoint, v.Region, wc.DataPath))
	}
	connector, err := duckdb.NewConnector("?"+extensions.DSNOptions(), func(c driver.ExecerContext) error {
		for _, q := range append(stmts,
			"ATTACH IF NOT EXISTS 'ducklake:"+cat+"' AS lake (DATA_PATH '"+wc.DataPath+"', READ_ONLY)", "USE lake") {
			if _, err := c.ExecContext(context.Background(), q, nil); err != nil {
				return fmt.Errorf("%s: %w", q[:min(len(q), 20)], err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, true, fmt.Errorf("open the lake of %s: %w", projectDir, err)
	}
	return &warehouse{db}, true, nil
}
