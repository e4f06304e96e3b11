package warehouse

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// layout1DDL is layout 1's catalog as it was written: the current pointers
// in a table of their own.
var layout1DDL = []string{
	`CREATE TEMP TABLE v2 AS SELECT * EXCLUDE (is_current, content_hash, snapshot, based_on, inputs, ever_current) FROM _strata.versions`,
	`CREATE TEMP TABLE c2 AS SELECT * FROM _strata.current`,
	`DROP VIEW _strata.current`,
	`DROP TABLE _strata.versions`,
	`CREATE TABLE _strata.versions (
		product VARCHAR NOT NULL, partition VARCHAR NOT NULL, partition_start TIMESTAMPTZ NOT NULL,
		partition_end TIMESTAMPTZ NOT NULL, version INTEGER NOT NULL, run_id VARCHAR NOT NULL,
		code_hash VARCHAR NOT NULL, upstream JSON NOT NULL, row_count BIGINT NOT NULL, schema JSON NOT NULL,
		created_at TIMESTAMPTZ NOT NULL, storage_table VARCHAR NOT NULL,
		PRIMARY KEY (product, partition, version))`,
	`CREATE TABLE _strata.current (
		product VARCHAR NOT NULL, partition VARCHAR NOT NULL, version INTEGER NOT NULL,
		PRIMARY KEY (product, partition))`,
	`INSERT INTO _strata.versions SELECT * FROM temp.v2`,
	`INSERT INTO _strata.current SELECT * FROM temp.c2`,
	`UPDATE _strata.meta SET value = '1' WHERE key = 'layout'`,
}

// A warehouse written by layout 1 opens with every version, every current
// pointer and the product views as they were, and publishes on.
func TestMigrateLayout1(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.duckdb")
	wh, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	publish(t, wh, "m", "2024-03-10", ids(t, 1, 2))
	publish(t, wh, "m", "2024-03-10", ids(t, 3))
	publish(t, wh, "m", "2024-03-11", ids(t, 4))
	stage(t, wh, "m", "2024-03-11", ids(t, 5))
	if err := wh.Rollback(ctx, "m", "2024-03-10", 1); err != nil {
		t.Fatal(err)
	}
	if err := wh.Close(); err != nil {
		t.Fatal(err)
	}

	c, err := duckdb.NewConnector(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	for _, q := range layout1DDL {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()

	wh, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("open layout 1: %v", err)
	}
	defer wh.Close()
	if v := scalar(t, wh, `SELECT value::INTEGER FROM _strata.meta WHERE key = 'layout'`); v != layoutVersion {
		t.Fatalf("layout %d after migration", v)
	}
	if n := scalar(t, wh, `SELECT count(*) FROM _strata.versions`); n != 4 {
		t.Fatalf("%d versions after migration, want 4", n)
	}
	// Current: version 1 of the 10th (rolled back), version 1 of the 11th
	// (version 2 staged only).
	if got := idsOf(read(t, wh, "m", Selection{})); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 4 {
		t.Fatalf("current rows after migration: %v", got)
	}
	if got := idsOf(query(t, wh, `SELECT id FROM m ORDER BY id`)); len(got) != 3 {
		t.Fatalf("product view after migration: %v", got)
	}
	v := publish(t, wh, "m", "2024-03-10", ids(t, 6))
	if v.Version != 3 {
		t.Fatalf("next version %d, want 3", v.Version)
	}
	if got := idsOf(read(t, wh, "m", Selection{Partitions: []string{"2024-03-10"}})); len(got) != 1 || got[0] != 6 {
		t.Fatalf("after a publish: %v", got)
	}
	checkIntegrity(t, wh)
}
