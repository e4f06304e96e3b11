package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/projects/extensions/exttest"
	"github.com/stratahq/strata/projects/secrets"
)

// s3Warehouse is a warehouse with httpfs and an s3 secret "lake" valued
// from environment variables that point at srv.
func s3Warehouse(t *testing.T, srv *s3test.Server) (*Warehouse, *secrets.Store) {
	t.Helper()
	exttest.Require(t, "httpfs")
	t.Setenv("LAKE_KEY_ID", srv.KeyID)
	t.Setenv("LAKE_SECRET", srv.Secret)
	t.Setenv("LAKE_ENDPOINT", srv.Endpoint)
	off := false
	store := secrets.New(t.TempDir(), map[string]secrets.Spec{"lake": {S3: &secrets.S3{
		KeyID: secrets.Spec{Env: "LAKE_KEY_ID"}, Secret: secrets.Spec{Env: "LAKE_SECRET"}, EndpointEnv: "LAKE_ENDPOINT",
		Region: srv.Region, URLStyle: "path", UseSSL: &off,
	}}})
	w := openTemp(t, Options{Extensions: []string{"httpfs"}})
	w.UseSecrets(store)
	return w, store
}

// A SQL block reads Parquet and CSV from a real S3-compatible server
// (SeaweedFS) through an s3 secret; the secret is DuckDB's temporary one,
// never persisted, and Parquet written to s3:// lands one object a
// partition, replaced when written again.
func TestSQLBlockReadsS3ThroughAnS3Secret(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	srv.Put(t, "lake", "raw/customers.csv", []byte("id,name\n1,Ada\n2,Grace\n"))
	w, _ := s3Warehouse(t, srv)
	ctx := context.Background()

	// Parquet made by DuckDB locally, uploaded by the S3 API.
	local := filepath.Join(t.TempDir(), "orders.parquet")
	if _, err := w.DB().ExecContext(ctx, "COPY (SELECT i AS id, (i * 1.25)::DECIMAL(10,2) AS amount FROM range(1, 6) t(i)) TO '"+local+"' (FORMAT parquet)"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(local)
	if err != nil {
		t.Fatal(err)
	}
	srv.Put(t, "lake", "orders/day=2024-03-10/data.parquet", b)

	out, err := w.RunSQL(ctx, "SELECT count(*) AS n, sum(amount) AS total FROM read_parquet('s3://lake/orders/*/*.parquet')", nil, nil)
	if err != nil {
		t.Fatalf("read_parquet over s3: %v", err)
	}
	if n := out.Column("n").Int64s()[0]; n != 5 {
		t.Fatalf("rows %d, want 5", n)
	}
	if got := out.Column("total").Decimals()[0]; got != "18.75" {
		t.Errorf("total %s, want 18.75 (exact)", got)
	}
	out, err = w.RunSQL(ctx, "SELECT name FROM read_csv('s3://lake/raw/customers.csv') ORDER BY id", nil, nil)
	if err != nil {
		t.Fatalf("read_csv over s3: %v", err)
	}
	if got := strings.Join(out.Column("name").Strings(), ","); got != "Ada,Grace" {
		t.Fatalf("names %q", got)
	}
	// ctx.Query in a Go block goes through Query: s3 works there too.
	if _, err := w.Query(ctx, "SELECT * FROM read_csv('s3://lake/raw/customers.csv')"); err != nil {
		t.Fatalf("Query over s3: %v", err)
	}

	// Temporary (memory only), its secret redacted where DuckDB shows it.
	var persistent bool
	var shown string
	if err := w.DB().QueryRowContext(ctx, "SELECT persistent, secret_string FROM duckdb_secrets() WHERE name = 'strata_s3_lake'").Scan(&persistent, &shown); err != nil {
		t.Fatal(err)
	}
	if persistent || strings.Contains(shown, srv.Secret) {
		t.Fatalf("DuckDB secret persistent=%v, shows the secret: %v", persistent, strings.Contains(shown, srv.Secret))
	}

	// Parquet out: written to the key, read back; written again, still one object.
	tab := sdk.NewTable(sdk.Int64("id"), sdk.String("name"))
	tab.Append(int64(1), "Ada")
	tab.Append(int64(2), "Grace")
	dest := HivePath("s3://lake/export", "day", "2024-03-10", "data.parquet")
	if dest != "s3://lake/export/day=2024-03-10/data.parquet" {
		t.Fatalf("hive path %s", dest)
	}
	for i := 0; i < 2; i++ {
		if err := w.WriteParquet(ctx, tab, dest); err != nil {
			t.Fatalf("write parquet to s3 (%d): %v", i, err)
		}
	}
	if keys := srv.List(t, "lake", "export/"); len(keys) != 1 || keys[0] != "export/day=2024-03-10/data.parquet" {
		t.Fatalf("objects under export/: %v, want the one partition file", keys)
	}
	out, err = w.RunSQL(ctx, "SELECT count(*) AS n FROM read_parquet('"+dest+"')", nil, nil)
	if err != nil || out.Column("n").Int64s()[0] != 2 {
		t.Fatalf("read back: %v", err)
	}
}

// A wrong secret: the error says what failed, and holds neither the key id
// nor the secret.
func TestS3ErrorsAreMasked(t *testing.T) {
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	srv.Put(t, "lake", "a.csv", []byte("x\n1\n"))
	w, _ := s3Warehouse(t, srv)
	bad := "WRONG" + srv.Secret
	t.Setenv("LAKE_SECRET", bad)
	_, err := w.RunSQL(context.Background(), "SELECT * FROM read_csv('s3://lake/a.csv')", nil, nil)
	if err == nil {
		t.Fatal("a wrong secret read the object")
	}
	if strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), srv.KeyID) {
		t.Fatalf("error shows a secret value: %v", err)
	}
	if !strings.Contains(err.Error(), "s3://lake/a.csv") {
		t.Errorf("error does not name the path: %v", err)
	}
}
