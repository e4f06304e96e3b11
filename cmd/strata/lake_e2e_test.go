package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// lakeReader is a separate DuckDB process (Python's duckdb, the same
// DuckDB version) that attaches the lake as any user would and prints, per
// partition of the product, its row count: what a BI tool or notebook sees.
// With $LAKE_S3_SECRET (a CREATE SECRET statement) it reads a data path in S3;
// a snapshot "at:N" reads the product AT (VERSION => N) instead of attaching
// the lake at snapshot N.
const lakeReader = `
import os, sys, duckdb
catalog, data, product, snapshot = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = duckdb.connect(config={'autoinstall_known_extensions': False, 'autoload_known_extensions': False})
c.execute("LOAD ducklake"); c.execute("LOAD postgres_scanner")
if os.environ.get("LAKE_S3_SECRET"):
    c.execute("LOAD httpfs"); c.execute(os.environ["LAKE_S3_SECRET"])
at = ""
if snapshot.startswith("at:"):
    at, snapshot = " AT (VERSION => " + snapshot[3:] + ")", ""
opts = "DATA_PATH '" + data + "', READ_ONLY" + ("" if snapshot == "" else ", SNAPSHOT_VERSION " + snapshot)
try:
    c.execute("ATTACH 'ducklake:" + catalog + "' AS lake (" + opts + ")")
except duckdb.InvalidInputException as e:
    # The backfill that creates the lake starts beside the first read; until
    # its catalog exists there is nothing to see, as before the product's view exists.
    if "does not exist" in str(e) and product != "snapshot":
        sys.exit(0)
    raise
if product == "snapshot":
    print(c.execute("SELECT max(snapshot_id) FROM ducklake_snapshots('lake')").fetchone()[0])
    sys.exit(0)
if c.execute("SELECT count(*) FROM duckdb_views() WHERE database_name = 'lake' AND view_name = ?", [product]).fetchone()[0] == 0:
    sys.exit(0)
for p, n in c.execute("SELECT _partition, count(*) FROM lake." + product + at + " GROUP BY 1 ORDER BY 1").fetchall():
    print(p, n)
`

// readLake runs lakeReader and returns the row count per partition.
func readLake(t *testing.T, script, catalog, data, product, snapshot string) (map[string]int, string) {
	t.Helper()
	cmd := exec.Command("python3", script, catalog, data, product, snapshot)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("separate duckdb reading %s: %v\n%s", product, err, out)
	}
	counts := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) == 2 {
			n, _ := strconv.Atoi(f[1])
			counts[f[0]] = n
		}
	}
	return counts, strings.TrimSpace(string(out))
}

// requirePythonDuckDB skips (fails under CI) without `pip install duckdb`,
// which make setup-system installs.
func requirePythonDuckDB(t *testing.T) {
	t.Helper()
	if err := exec.Command("python3", "-c", "import duckdb").Run(); err != nil {
		why := "no python duckdb (make setup-system: pip install duckdb==1.5.5): the separate reader of the lake"
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
}

// The demo project with `warehouse: {kind: ducklake}` (catalog in a real
// Postgres, its password from a secret, Parquet in a folder) backfills
// through the real binary while a separate duckdb process reads a product
// again and again: each read succeeds (no lock keeps it out) and every
// partition it sees has exactly the rows of its current version, never a
// part of one. After the backfill, the reader sees every partition, and by
// attaching an older snapshot, the lake as it was.
func TestLakeProductReadByAnotherProcessDuringBackfill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exttest.Require(t, "ducklake", "postgres")
	requirePythonDuckDB(t)
	pg := pgtest.Start(t)
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	data := filepath.Join(t.TempDir(), "lake")
	catalog := fmt.Sprintf("postgres:host=%s port=%d user=%s dbname=%s sslmode=disable", pg.Host, pg.Port, pg.User, pg.Database)
	f, err := os.OpenFile(filepath.Join(dir, "strata.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "secrets:\n  pg_lake: {env: STRATA_TEST_LAKE_PASSWORD}\nwarehouse:\n  kind: ducklake\n  catalog: %q\n  password: pg_lake\n  data_path: %s\n", catalog, data)
	f.Close()
	t.Setenv("STRATA_TEST_LAKE_PASSWORD", pg.Password)
	script := filepath.Join(t.TempDir(), "read_lake.py")
	if err := os.WriteFile(script, []byte(lakeReader), 0o644); err != nil {
		t.Fatal(err)
	}
	readerCatalog := catalog + " password=" + pg.Password

	const product, days = "daily_customer_metrics", 60
	backfill := exec.Command(bin, "backfill", dir, "clv", "--from", "2024-01-01", "--to", "2024-02-29")
	var bout strings.Builder
	backfill.Stdout, backfill.Stderr = &bout, &bout
	if err := backfill.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- backfill.Wait() }()
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
	seen := 0
	for i, counts := range during {
		for p, n := range counts {
			if final[p] != n {
				t.Fatalf("read %d during the backfill: partition %s had %d rows, its version has %d (a part of a version was visible)", i, p, n, final[p])
			}
		}
		if len(counts) > 0 && len(counts) < days {
			seen++
		}
	}
	t.Logf("%d reads during the backfill, %d of them saw it part way", len(during), seen)
	if len(during) == 0 {
		t.Fatal("no read ran during the backfill")
	}

	// An older snapshot is the lake as it was: fewer partitions.
	out, err := exec.Command("python3", script, readerCatalog, data, "snapshot", "").Output()
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	old, raw := readLake(t, script, readerCatalog, data, product, strconv.Itoa(snap/2))
	if len(old) >= days {
		t.Fatalf("snapshot %d of %d shows %d partitions, want fewer than %d:\n%s", snap/2, snap, len(old), days, raw)
	}
	for p, n := range old {
		if final[p] != n {
			t.Fatalf("snapshot %d: partition %s has %d rows, want %d", snap/2, p, n, final[p])
		}
	}
	if strings.Contains(bout.String(), pg.Password) {
		t.Fatalf("the backfill printed the catalog password:\n%s", bout.String())
	}
}

// Regression (CI of 1f8df96): the reader beside a backfill ran before the
// backfill had created the lake in Postgres and failed the test with
// "Existing DuckLake … does not exist". Until the lake exists a reader sees
// nothing, as it does before the product's view exists.
func TestLakeReaderBeforeTheLakeExists(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Postgres")
	}
	exttest.Require(t, "ducklake", "postgres")
	requirePythonDuckDB(t)
	pg := pgtest.Start(t)
	script := filepath.Join(t.TempDir(), "read_lake.py")
	if err := os.WriteFile(script, []byte(lakeReader), 0o644); err != nil {
		t.Fatal(err)
	}
	catalog := fmt.Sprintf("postgres:host=%s port=%d user=%s dbname=%s sslmode=disable password=%s", pg.Host, pg.Port, pg.User, pg.Database, pg.Password)
	if counts, raw := readLake(t, script, catalog, t.TempDir(), "daily_customer_metrics", ""); len(counts) != 0 {
		t.Fatalf("a lake not created yet shows partitions: %s", raw)
	}
}
