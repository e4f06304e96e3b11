package warehouse

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/extensions"
	"github.com/stratahq/strata/projects/secrets"
)

// Committed versions read on a worker. A SQL block that reads committed
// versions of its upstreams (the demo's weekly rollup reads a week of
// daily_customer_metrics) can run on a worker when the products are in a
// DuckLake every machine reaches: the worker attaches the lake read-only
// in a DuckDB of its own, reads exactly the versions the coordinator
// pinned, and runs the query in its sandbox (RunSQLOnTables). It takes no
// lock: the local lock file only keeps a second Strata *writer* out, and
// a read-only attach of a Postgres catalog is what any other reader does.
//
// The catalog's password reaches the worker only sealed (the coordinator
// names the secret, the worker asks for it), lives in this process's
// memory for the read, and is masked in every error.

// RemoteLake is what a worker needs to read this warehouse's committed
// versions itself.
type RemoteLake struct {
	Catalog        string // the connection string, never with a password
	DataPath       string
	PasswordSecret string // the secret holding the password; "" for none
	// S3 is how to reach an S3 data path without its key (nil for a
	// folder); Key is that key, filled in by the worker once it has asked
	// for it (never sent).
	S3  *LakeS3
	Key *secrets.S3Values
}

// RemoteLake says how a worker reads this warehouse's versions, when it
// can: a DuckLake with its catalog in Postgres (a DuckDB-file catalog is
// this process's alone) and its data in a folder or in a bucket whose key
// comes from a named s3 secret, whose password, if any, comes from a
// named secret (the worker asks for both sealed).
func (w *Warehouse) RemoteLake() (RemoteLake, bool) {
	l, ok := w.backend.(*lakeBackend)
	if !ok || !l.postgres() {
		return RemoteLake{}, false
	}
	if l.opts.Password != "" && l.opts.PasswordSecret == "" {
		return RemoteLake{}, false
	}
	s3 := l.lakeS3()
	if isURL(l.opts.DataPath) && s3 == nil {
		return RemoteLake{}, false
	}
	return RemoteLake{Catalog: l.opts.Catalog, DataPath: l.opts.DataPath, PasswordSecret: l.opts.PasswordSecret, S3: s3}, true
}

// ReadLakeVersions reads committed versions from a lake, one table per
// input (each input's refs are of one product), in one snapshot of the
// lake, as the coordinator's warehouse reads them: ordered by partition,
// then as written, without _partition. A version that is not in the lake
// any more (retention removed it since it was pinned) is an error, never
// the partition's newer version: the caller then reads on the coordinator.
func ReadLakeVersions(ctx context.Context, lake RemoteLake, password string, inputs [][]VersionRef) ([]*sdk.Table, error) {
	l := &lakeBackend{opts: LakeOptions{Catalog: lake.Catalog, DataPath: lake.DataPath, Password: password, S3: lake.Key}, readOnly: true}
	if isURL(lake.DataPath) && lake.Key == nil {
		return nil, fmt.Errorf("the lake's data path %s is in S3 and no key was given to reach it", lake.DataPath)
	}
	if strings.Contains(lake.Catalog, "password=") {
		return nil, fmt.Errorf("the lake's catalog string holds a password: refused (it comes from a secret)")
	}
	tables, err := readLakeVersions(ctx, l, inputs)
	if err != nil {
		return nil, fmt.Errorf("read the lake's versions on this machine: %s", l.mask(err.Error()))
	}
	return tables, nil
}

func readLakeVersions(ctx context.Context, l *lakeBackend, inputs [][]VersionRef) ([]*sdk.Table, error) {
	connector, err := duckdb.NewConnector("?"+extensions.DSNOptions(), func(c driver.ExecerContext) error {
		return l.initConn(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// One transaction: one snapshot of the lake for every input.
	if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION READ ONLY"); err != nil {
		if _, err := conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
			return nil, err
		}
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK") //nolint:errcheck // a read: nothing to keep
	out := make([]*sdk.Table, len(inputs))
	for i, refs := range inputs {
		if out[i], err = readPinnedExactly(ctx, conn, refs); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readPinnedExactly reads refs (one product's versions) and checks that it
// read those versions and their recorded row counts.
func readPinnedExactly(ctx context.Context, conn *sql.Conn, refs []VersionRef) (*sdk.Table, error) {
	if len(refs) == 0 {
		return nil, fmt.Errorf("no versions to read")
	}
	parts, storage, read, err := pinnedParts(ctx, conn, refs[0].Product, refs)
	if err != nil {
		return nil, err
	}
	var rows int64
	for i, r := range read {
		if r != refs[i] {
			return nil, fmt.Errorf("%s is no longer in the lake (the partition's version is now %d)", refs[i], r.Version)
		}
		rows += parts[i].rows
	}
	t, err := queryTable(ctx, conn, readSQL(parts, storage, -1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", refs[0].Product, err)
	}
	if int64(t.Len()) != rows {
		return nil, fmt.Errorf("read %d rows of %s's pinned versions, the catalog records %d", t.Len(), refs[0].Product, rows)
	}
	return withoutPartition(t), nil
}
