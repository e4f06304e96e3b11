package project

import (
	"path/filepath"
	"strings"
	"time"
)

// Warehouse kinds strata.yaml may pick.
const (
	WarehouseDuckDB   = "duckdb"   // the embedded file .strata/warehouse.duckdb (the default)
	WarehouseDuckLake = "ducklake" // a DuckLake: catalog in Postgres or a file, Parquet in a folder
)

// WarehouseConfig is strata.yaml's `warehouse:`, where the products live:
//
//	warehouse:
//	  kind: ducklake
//	  catalog: "postgres:dbname=lake host=127.0.0.1 user=strata"   # or lake.ducklake
//	  password: pg_lake      # a secret's name (secrets:), never the value
//	  data_path: /shared/lake   # or s3://bucket/prefix/ with s3_secret
//	  s3_secret: lake_s3     # an s3 secret (kind: s3) for an s3:// data_path
//	  keep_snapshots: 24h    # how far back time travel reaches (the default)
//
// Left out, the warehouse is the embedded DuckDB file, as before.
type WarehouseConfig struct {
	Kind     string // WarehouseDuckDB or WarehouseDuckLake
	Catalog  string // "postgres:…" as written, or an absolute file path
	DataPath string // absolute, or a URL (s3://…) as written
	Password string // the name of the secret holding the catalog's password; "" for none
	// S3Secret names the s3 secret (kind: s3) whose key reaches an
	// s3:// data_path; required with one, refused without.
	S3Secret string
	// KeepSnapshots is how long the lake's old snapshots stay for time
	// travel before they expire and their files are deleted; 0: the
	// warehouse's default (a day).
	KeepSnapshots time.Duration
}

// Lake says whether the products live in a DuckLake.
func (w WarehouseConfig) Lake() bool { return w.Kind == WarehouseDuckLake }

var warehouseFields = []string{"kind", "catalog", "data_path", "password", "s3_secret", "keep_snapshots"}

// decodeWarehouse reads `warehouse:`; it runs after secrets, which a
// password must name.
func (d *decoder) decodeWarehouse(p *Project, we entry) {
	f, ok := d.fields(we.val, "warehouse", "the warehouse", warehouseFields)
	if !ok {
		return
	}
	w := WarehouseConfig{Kind: WarehouseDuckDB}
	if e, ok := f["kind"]; ok {
		if s, ok := d.str(e, "warehouse.kind"); ok {
			if s != WarehouseDuckDB && s != WarehouseDuckLake {
				d.addf(e.val, "warehouse.kind", "unknown warehouse kind %q: want duckdb (the embedded file) or ducklake", s)
				return
			}
			w.Kind = s
		}
	}
	if w.Kind == WarehouseDuckDB {
		for _, k := range []string{"catalog", "data_path", "password", "s3_secret", "keep_snapshots"} {
			if e, ok := f[k]; ok {
				d.addf(e.key, "warehouse."+k, "%s is for kind ducklake; the duckdb warehouse is the file .strata/warehouse.duckdb", k)
			}
		}
		p.Warehouse = w
		return
	}
	need := func(k, what string) (string, bool) {
		e, ok := f[k]
		if !ok {
			d.addf(we.val, "warehouse."+k, "kind ducklake needs %s", what)
			return "", false
		}
		s, ok := d.str(e, "warehouse."+k)
		if ok && strings.TrimSpace(s) == "" {
			d.addf(e.val, "warehouse."+k, "kind ducklake needs %s, got an empty string", what)
			return "", false
		}
		return s, ok
	}
	cat, ok1 := need("catalog", `catalog: "postgres:dbname=… host=…" or a file such as lake.ducklake`)
	data, ok2 := need("data_path", "data_path: the folder for the Parquet files")
	if !ok1 || !ok2 {
		return
	}
	if strings.Contains(strings.ToLower(cat), "password") {
		d.addf(f["catalog"].val, "warehouse.catalog", "the catalog holds a password: strata.yaml is versioned; name a secret in warehouse.password instead")
		return
	}
	if !strings.HasPrefix(cat, "postgres:") && !filepath.IsAbs(cat) {
		cat = filepath.Join(p.Dir, cat)
	}
	if !strings.Contains(data, "://") && !filepath.IsAbs(data) {
		data = filepath.Join(p.Dir, data)
	}
	w.Catalog, w.DataPath = cat, data
	if e, ok := f["keep_snapshots"]; ok {
		if v, ok := d.duration(e, "warehouse.keep_snapshots", false); ok {
			w.KeepSnapshots = v
		}
	}
	if e, ok := f["password"]; ok {
		if s, ok := d.str(e, "warehouse.password"); ok {
			if _, known := p.Secrets[s]; !known {
				d.addf(e.val, "warehouse.password", "secret %q is not in secrets: (name the secret that holds the catalog's password, for example pg_lake: {env: PG_LAKE_PASSWORD})", s)
				return
			}
			w.Password = s
		}
	}
	if !d.lakeS3Secret(p, f, &w) {
		return
	}
	p.Warehouse = w
}

// lakeS3Secret reads warehouse.s3_secret: an s3:// data_path needs one
// (the key never stands in strata.yaml), a folder takes none.
func (d *decoder) lakeS3Secret(p *Project, f map[string]entry, w *WarehouseConfig) bool {
	s3 := strings.HasPrefix(strings.ToLower(w.DataPath), "s3://")
	e, ok := f["s3_secret"]
	switch {
	case !ok && s3:
		d.addf(f["data_path"].val, "warehouse.s3_secret", "data_path %s is in S3: name an s3 secret (kind: s3) in warehouse.s3_secret, for example s3_secret: lake_s3", w.DataPath)
		return false
	case !ok:
		return true
	case !s3:
		d.addf(e.key, "warehouse.s3_secret", "s3_secret is for a data_path in S3 (s3://bucket/prefix/); data_path %s is a folder", w.DataPath)
		return false
	}
	name, ok := d.str(e, "warehouse.s3_secret")
	if !ok {
		return false
	}
	if sp, known := p.Secrets[name]; !known || sp.S3 == nil {
		d.addf(e.val, "warehouse.s3_secret", "secret %q is not an s3 secret in secrets: (want one with kind: s3, key_id, secret and endpoint)", name)
		return false
	}
	w.S3Secret = name
	return true
}
