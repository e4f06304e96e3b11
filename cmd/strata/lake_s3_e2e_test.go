package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// The demo project on a DuckLake whose data path is a prefix in an
// S3-compatible server (SeaweedFS), the key from an s3 secret: a backfill
// writes its Parquet there, a separate duckdb process reads the product
// during and after it (every partition it sees has its version's rows), and
// neither the key id nor the secret is in strata.yaml, the project's files or
// anything strata printed.
func TestLakeOnS3BackfillReadByAnotherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, starts Postgres and SeaweedFS")
	}
	exttest.Require(t, "ducklake", "postgres", "httpfs")
	requirePythonDuckDB(t)
	pg := pgtest.Start(t)
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	const data = "s3://lake/strata/"
	catalog := fmt.Sprintf("postgres:host=%s port=%d user=%s dbname=%s sslmode=disable", pg.Host, pg.Port, pg.User, pg.Database)
	f, err := os.OpenFile(filepath.Join(dir, "strata.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `extensions: [httpfs]
secrets:
  pg_lake: {env: STRATA_TEST_LAKE_PASSWORD}
  lake_s3: {kind: s3, key_id: {env: STRATA_TEST_S3_KEY}, secret: {env: STRATA_TEST_S3_SECRET}, endpoint: {env: STRATA_TEST_S3_ENDPOINT}, region: us-east-1, url_style: path, use_ssl: false}
warehouse:
  kind: ducklake
  catalog: %q
  password: pg_lake
  data_path: %s
  s3_secret: lake_s3
`, catalog, data)
	f.Close()
	t.Setenv("STRATA_TEST_LAKE_PASSWORD", pg.Password)
	t.Setenv("STRATA_TEST_S3_KEY", srv.KeyID)
	t.Setenv("STRATA_TEST_S3_SECRET", srv.Secret)
	t.Setenv("STRATA_TEST_S3_ENDPOINT", srv.Endpoint)
	script := filepath.Join(t.TempDir(), "read_lake.py")
	if err := os.WriteFile(script, []byte(lakeReader), 0o644); err != nil {
		t.Fatal(err)
	}
	readerCatalog := catalog + " password=" + pg.Password
	const product, days = "daily_customer_metrics", 14

	backfill := exec.Command(bin, "backfill", dir, "clv", "--from", "2024-01-01", "--to", "2024-01-14")
	var bout strings.Builder
	backfill.Stdout, backfill.Stderr = &bout, &bout
	if err := backfill.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- backfill.Wait() }()
	t.Setenv("LAKE_S3_SECRET", srv.DuckDBSecret("reader_s3"))
	var during []map[string]int
	var berr error
	for running := true; running; {
		select {
		case berr = <-done:
			running = false
			continue
		default:
		}
		counts, _ := readLake(t, script, readerCatalog, data, product, "")
		during = append(during, counts)
	}
	if berr != nil {
		t.Fatalf("backfill: %v\n%s", berr, bout.String())
	}
	final, raw := readLake(t, script, readerCatalog, data, product, "")
	if len(final) != days {
		t.Fatalf("after the backfill the reader sees %d partitions, want %d:\n%s\nbackfill:\n%s", len(final), days, raw, bout.String())
	}
	for i, counts := range during {
		for p, n := range counts {
			if final[p] != n {
				t.Fatalf("read %d during the backfill: partition %s had %d rows, its version has %d", i, p, n, final[p])
			}
		}
	}
	t.Logf("%d reads during the backfill", len(during))

	// The Parquet is in the bucket under the prefix, not in a local folder.
	keys := srv.List(t, "lake", "strata/")
	parquet := 0
	for _, k := range keys {
		if strings.HasSuffix(k, ".parquet") {
			parquet++
		}
	}
	if parquet < days {
		t.Fatalf("%d Parquet objects under s3://lake/strata/, want at least %d: %v", parquet, days, keys)
	}
	t.Logf("%d Parquet objects in the bucket", parquet)

	// `strata products versions` names the snapshot each version became
	// current in, and the product read there has that version's rows.
	vout, code := strataproc.Run(t, bin, "products", "versions", dir, product, "--format", "json")
	if code != 0 {
		t.Fatalf("products versions: %s", vout)
	}
	var parts []struct {
		Key      string
		Versions []struct {
			Version      int
			Rows         int
			LakeSnapshot int64 `json:"lake_snapshot"`
		}
	}
	if err := json.Unmarshal([]byte(vout), &parts); err != nil || len(parts) != days {
		t.Fatalf("products versions --format json: %v, %d partitions:\n%s", err, len(parts), vout)
	}
	for _, p := range []int{0, days - 1} {
		v := parts[p].Versions[len(parts[p].Versions)-1]
		if v.LakeSnapshot <= 0 {
			t.Fatalf("partition %s version %d has no lake snapshot:\n%s", parts[p].Key, v.Version, vout)
		}
		at, raw := readLake(t, script, readerCatalog, data, product, fmt.Sprint("at:", v.LakeSnapshot))
		if at[parts[p].Key] != final[parts[p].Key] || at[parts[p].Key] != v.Rows {
			t.Fatalf("at snapshot %d partition %s reads %d rows, its version %d has %d:\n%s", v.LakeSnapshot, parts[p].Key, at[parts[p].Key], v.Version, v.Rows, raw)
		}
	}
	if out, code := strataproc.Run(t, bin, "products", "versions", dir, product, "--partition", parts[0].Key); code != 0 || !strings.Contains(out, "LAKE SNAPSHOT") {
		t.Fatalf("products versions (table): %s", out)
	}

	// The key is in no output and no file of the project.
	for _, s := range []string{srv.KeyID, srv.Secret, pg.Password} {
		if strings.Contains(bout.String(), s) {
			t.Fatalf("the backfill printed a credential:\n%s", bout.String())
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, s := range []string{srv.KeyID, srv.Secret} {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds the S3 key", p)
			}
		}
		return nil
	})
}
