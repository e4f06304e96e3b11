package project

import (
	"path/filepath"
	"testing"
	"time"
)

func TestLoadWarehouse(t *testing.T) {
	t.Parallel()
	dir := writeProject(t, map[string]string{"strata.yaml": lines(
		"name: shop",
		"secrets:",
		"  pg_lake: {env: PG_LAKE_PASSWORD}",
		"warehouse:",
		"  kind: ducklake",
		`  catalog: "postgres:dbname=lake host=127.0.0.1"`,
		"  password: pg_lake",
		"  data_path: lake",
		"  keep_snapshots: 2h",
	)})
	p, probs := loadProject(t, dir)
	assertProblems(t, probs, nil)
	want := WarehouseConfig{Kind: WarehouseDuckLake, Catalog: "postgres:dbname=lake host=127.0.0.1", DataPath: filepath.Join(p.Dir, "lake"), Password: "pg_lake", KeepSnapshots: 2 * time.Hour}
	if p.Warehouse != want || !p.Warehouse.Lake() {
		t.Errorf("warehouse = %+v, want %+v", p.Warehouse, want)
	}
	dir = writeProject(t, map[string]string{"strata.yaml": "name: shop\n"})
	if p, _ := loadProject(t, dir); p.Warehouse.Kind != WarehouseDuckDB || p.Warehouse.Lake() {
		t.Errorf("default warehouse = %+v, want the duckdb file", p.Warehouse)
	}
	dir = writeProject(t, map[string]string{"strata.yaml": lines(
		"extensions: [httpfs]",
		"secrets:",
		"  lake_s3: {kind: s3, key_id: {env: K}, secret: {env: S}, endpoint: 127.0.0.1:9000}",
		"warehouse: {kind: ducklake, catalog: lake.ducklake, data_path: \"s3://lake/strata/\", s3_secret: lake_s3}",
	)})
	if p, probs := loadProject(t, dir); len(probs) > 0 || p.Warehouse.DataPath != "s3://lake/strata/" || p.Warehouse.S3Secret != "lake_s3" {
		t.Errorf("s3 data path = %+v (%v), want s3://lake/strata/ with s3_secret lake_s3", p.Warehouse, probs)
	}
	dir = writeProject(t, map[string]string{"strata.yaml": "warehouse: {kind: ducklake, catalog: lake.ducklake, data_path: /srv/lake}\n"})
	if p, _ := loadProject(t, dir); p.Warehouse.Catalog != filepath.Join(p.Dir, "lake.ducklake") || p.Warehouse.DataPath != "/srv/lake" {
		t.Errorf("file catalog = %+v, want it beside strata.yaml", p.Warehouse)
	}
}

func TestLoadRefusesBadWarehouse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		yaml string
		want []want
	}{
		{"warehouse: {kind: iceberg}\n", []want{{"strata.yaml", 1, "warehouse.kind", `unknown warehouse kind "iceberg"`}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake}\n", []want{{"strata.yaml", 1, "warehouse.data_path", "kind ducklake needs data_path"}}},
		{"warehouse: {kind: duckdb, data_path: x}\n", []want{{"strata.yaml", 1, "warehouse.data_path", "data_path is for kind ducklake"}}},
		{"warehouse: {kind: ducklake, catalog: \"postgres:dbname=x password=hunter22\", data_path: d}\n",
			[]want{{"strata.yaml", 1, "warehouse.catalog", "the catalog holds a password"}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake, data_path: d, password: nope}\n",
			[]want{{"strata.yaml", 1, "warehouse.password", `secret "nope" is not in secrets:`}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake, data_path: d, keep_snapshots: 0s}\n",
			[]want{{"strata.yaml", 1, "warehouse.keep_snapshots", ""}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake, data_path: \"s3://lake/p/\"}\n",
			[]want{{"strata.yaml", 1, "warehouse.s3_secret", "data_path s3://lake/p/ is in S3: name an s3 secret"}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake, data_path: d, s3_secret: k}\n",
			[]want{{"strata.yaml", 1, "warehouse.s3_secret", "s3_secret is for a data_path in S3"}}},
		{"secrets: {k: {env: K}}\nwarehouse: {kind: ducklake, catalog: x.ducklake, data_path: \"s3://lake/p/\", s3_secret: k}\n",
			[]want{{"strata.yaml", 2, "warehouse.s3_secret", `secret "k" is not an s3 secret`}}},
		{"warehouse: {kind: duckdb, s3_secret: k}\n", []want{{"strata.yaml", 1, "warehouse.s3_secret", "s3_secret is for kind ducklake"}}},
		{"warehouse: {kind: ducklake, catalog: x.ducklake, data_path: d, bucket: b}\n",
			[]want{{"strata.yaml", 1, "warehouse.bucket", `unknown field "bucket"`}}},
	}
	for _, c := range cases {
		dir := writeProject(t, map[string]string{"strata.yaml": c.yaml})
		_, probs := loadProject(t, dir)
		assertProblems(t, probs, c.want)
	}
}
