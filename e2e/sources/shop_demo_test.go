package sources

import (
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

// The shop demo end to end through the real binary, as its README walks
// it: a real Postgres seeded with seed.sql, `strata mod download`, a run
// that loads the 30 orders, 10 new orders, a run that loads only those 10
// (the Go block's pgx cursor in ctx.State), the metrics in Parquet and in
// Postgres once per load day. Compiled, the Parquet lands in a folder;
// interpreted (the project kernel with pgx), in a real S3-compatible server
// through an s3 secret. No output or project file holds a secret's value.
func TestShopDemoEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(err)
	}
	bin := strataproc.Binary(t)
	pg := pgtest.Start(t)
	for _, engine := range []string{"compiled", "interp"} {
		t.Run(engine, func(t *testing.T) {
			db := "shop_" + engine
			pg.Psql(t, "CREATE DATABASE "+db)
			shop := *pg
			shop.Database = db
			dir := filepath.Join(t.TempDir(), "shop")
			var outputs []string
			cmd := func(env []string, args ...string) string {
				t.Helper()
				out, code := strataCmd(t, bin, env, args...)
				outputs = append(outputs, out)
				if code != 0 {
					t.Fatalf("strata %s: exit %d\n%s", strings.Join(args, " "), code, out)
				}
				return out
			}
			out := cmd(nil, "init", dir, "--demo", "shop")
			if !strings.Contains(out, "README.md") {
				t.Fatalf("init --demo shop: %s", out)
			}
			seed, err := os.ReadFile(filepath.Join(dir, "seed.sql"))
			if err != nil {
				t.Fatal(err)
			}
			shop.Psql(t, string(seed))
			env := []string{"SHOP_PG_URL=" + shop.DSN()}
			secrets := []string{shop.Password}
			cmd(nil, "mod", "download", dir)
			lakeFiles := func() []string { return localFiles(t, filepath.Join(dir, "lake", "daily_metrics")) }
			if engine == "interp" {
				exttest.Require(t, "httpfs")
				srv := s3test.Start(t)
				srv.CreateBucket(t, "shop-lake")
				appendFile(t, filepath.Join(dir, "strata.yaml"), `extensions: [httpfs]
  lake:
    kind: s3
    key_id: {env: SHOP_S3_KEY_ID}
    secret: {env: SHOP_S3_SECRET}
    endpoint: {env: SHOP_S3_ENDPOINT}
    region: us-east-1
    url_style: path
    use_ssl: false
`)
				// The README's edit: the lake variable points at the bucket.
				replaceInFile(t, filepath.Join(dir, "pipelines", "shop.yaml"), "lake: lake/daily_metrics", "lake: s3://shop-lake/daily_metrics")
				env = append(env, "SHOP_S3_KEY_ID="+srv.KeyID, "SHOP_S3_SECRET="+srv.Secret, "SHOP_S3_ENDPOINT="+srv.Endpoint)
				secrets = append(secrets, srv.Secret, srv.KeyID)
				lakeFiles = func() []string { return srv.List(t, "shop-lake", "daily_metrics/") }
			}
			run := func(day string) string {
				t.Helper()
				out := cmd(env, "run", dir, "shop", "--partition", day, "--engine", engine)
				if !strings.Contains(out, "succeeded") || !strings.Contains(out, "engine "+engine) {
					t.Fatalf("run %s:\n%s", day, out)
				}
				return out
			}
			out = run("2024-03-10")
			if !strings.Contains(out, "after_id=0 rows=30 cursor=30") {
				t.Fatalf("first run did not load the 30 seeded orders:\n%s", out)
			}
			more, err := os.ReadFile(filepath.Join(dir, "more_orders.sql"))
			if err != nil {
				t.Fatal(err)
			}
			shop.Psql(t, string(more))
			out = run("2024-03-11")
			if !strings.Contains(out, "after_id=30 rows=10 cursor=40") {
				t.Fatalf("second run did not load only the 10 new orders:\n%s", out)
			}
			if got := strings.Join(lakeFiles(), ","); !strings.Contains(got, "day=2024-03-10/data.parquet") || strings.Count(got, "data.parquet") != 2 {
				t.Fatalf("lake files %q: want one per load day", got)
			}
			// Postgres: each load day's metrics once.
			got := shop.Psql(t, "SELECT loaded_on, sum(orders), sum(revenue) FROM daily_metrics GROUP BY 1 ORDER BY 1")
			if !strings.HasPrefix(got, "2024-03-10|30|") || !strings.Contains(got, "\n2024-03-11|10|") {
				t.Fatalf("daily_metrics by load day:\n%s", got)
			}
			want := shop.Psql(t, "SELECT sum(amount) FROM orders WHERE id <= 30")
			if !strings.HasSuffix(strings.SplitN(got, "\n", 2)[0], "|"+want) {
				t.Fatalf("revenue of the first load %q, want %s", got, want)
			}
			assertNoSecrets(t, dir, outputs, secrets)
		})
	}
}

// localFiles lists the files under dir, relative, or none when it is missing.
func localFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// assertNoSecrets: no command output and no file of the project (its
// warehouse and run records included) holds a secret value.
func assertNoSecrets(t *testing.T, dir string, outputs, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		for i, out := range outputs {
			if strings.Contains(out, s) {
				t.Errorf("output %d shows a secret value:\n%s", i, out)
			}
		}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if strings.Contains(p, string(filepath.Separator)+"pkg"+string(filepath.Separator)) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err == nil && strings.Contains(string(b), s) {
				t.Errorf("file %s holds a secret value", p)
			}
			return nil
		})
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// extensions: goes before secrets:, the lake secret after the others.
	s := string(b)
	ext, rest, _ := strings.Cut(text, "\n")
	s = strings.Replace(s, "secrets:\n", ext+"\nsecrets:\n", 1)
	if err := os.WriteFile(path, []byte(s+rest), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
