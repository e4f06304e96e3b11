package sources

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
)

// shopHold is put after the shop demo's to_postgres write: the export logs
// its key, and (first time only) writes "written" and waits for "go", so
// the trial can kill the server after the side effect and before the
// export ledger records it complete.
const shopHold = `ctx.Log.Info("wrote daily_metrics", "rows", n, "loaded_on", ctx.Partition.Key)
	trial := ctx.Var("trial", "")
	f, err := os.OpenFile(filepath.Join(trial, "exports.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "%s %s\n", ctx.Partition.Key, ctx.ExportKey())
	f.Close()
	if _, err := os.Stat(filepath.Join(trial, "go")); err == nil {
		return nil
	}
	if err := os.WriteFile(filepath.Join(trial, "written"), nil, 0o644); err != nil {
		return err
	}
	for {
		if _, err := os.Stat(filepath.Join(trial, "go")); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}`

// TestShopDemoKillMidPostgresExport: the shop demo through the real binary
// (Postgres in, Postgres and Parquet out, compiled), served by strata
// start; the server is killed with -9 right after to_postgres replaced the
// load day's rows in Postgres and before the export ledger recorded it.
// After the restart the backfill resumes: to_postgres runs again under the
// same key, and Postgres holds the day's metrics once (30 orders, revenue
// the sum of the seeded amounts), the lake one Parquet file for it.
func TestShopDemoKillMidPostgresExport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and the demo's compiled blocks")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(err)
	}
	bin := strataproc.Binary(t)
	pg := pgtest.Start(t)
	dir := filepath.Join(t.TempDir(), "shop")
	trial := t.TempDir()
	if out, code := strataproc.Run(t, bin, "init", dir, "--demo", "shop"); code != 0 {
		t.Fatal(out)
	}
	seed, err := os.ReadFile(filepath.Join(dir, "seed.sql"))
	if err != nil {
		t.Fatal(err)
	}
	pg.Psql(t, string(seed))
	block := filepath.Join(dir, "blocks", "to_postgres", "to_postgres.go")
	replaceInFile(t, block, `ctx.Log.Info("wrote daily_metrics", "rows", n, "loaded_on", ctx.Partition.Key)`, shopHold)
	replaceInFile(t, block, "import (\n\t\"database/sql\"\n", "import (\n\t\"database/sql\"\n\t\"fmt\"\n\t\"os\"\n\t\"path/filepath\"\n\t\"time\"\n")
	replaceInFile(t, filepath.Join(dir, "pipelines", "shop.yaml"), "  lake: lake/daily_metrics\n", "  lake: lake/daily_metrics\n  trial: \""+trial+"\"\n")
	if out, code := strataproc.Run(t, bin, "mod", "download", dir); code != 0 {
		t.Fatal(out)
	}
	t.Setenv("SHOP_PG_URL", pg.DSN())

	srv := strataproc.Start(t, bin, dir, token)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline":"shop","from":"2024-03-10","to":"2024-03-10","publish":"partition","concurrency":1,"engine":"compiled"}`, &launched)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(trial, "written")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("to_postgres never wrote; server:\n%s", srv.Stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.Kill()
	// Postgres has the day's rows already: the side effect happened.
	if got := pg.Psql(t, "SELECT count(*) > 0 FROM daily_metrics WHERE loaded_on = '2024-03-10'"); got != "t" {
		t.Fatalf("the held export had not written Postgres: %q", got)
	}
	w, err := openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	var done int
	if err := w.db.QueryRow(`SELECT count(*) FROM _strata.exports WHERE partition = '2024-03-10' AND run_id LIKE '%/to_postgres' AND completed_at IS NOT NULL`).Scan(&done); err != nil {
		t.Fatal(err)
	}
	w.close()
	if done != 0 {
		t.Fatal("the held export is recorded complete before it returned")
	}

	if err := os.WriteFile(filepath.Join(trial, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv = strataproc.Start(t, bin, dir, token)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	srv.Stop(t)
	if st.State != "succeeded" {
		t.Fatalf("after the restart: %s %q %+v\n%s", st.State, st.Message, st.Progress, srv.Stderr)
	}
	log, err := os.ReadFile(filepath.Join(trial, "exports.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 2 || lines[0] != lines[1] {
		t.Errorf("to_postgres ran %q: want twice under one key (cut, then repeated)", lines)
	}
	// Postgres: the day's metrics once.
	got := pg.Psql(t, "SELECT sum(orders), sum(revenue) FROM daily_metrics WHERE loaded_on = '2024-03-10'")
	if want := pg.Psql(t, "SELECT count(*), sum(amount) FROM orders"); got != want {
		t.Errorf("daily_metrics for 2024-03-10: orders|revenue %q, want %q once", got, want)
	}
	if files := localFiles(t, filepath.Join(dir, "lake", "daily_metrics")); strings.Join(files, ",") != "day=2024-03-10/data.parquet" {
		t.Errorf("lake files %v: want one for the load day", files)
	}
	w, err = openWarehouse(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	var completed int
	if err := w.db.QueryRow(`SELECT count(*) FROM _strata.exports WHERE partition = '2024-03-10' AND completed_at IS NOT NULL`).Scan(&completed); err != nil {
		t.Fatal(err)
	}
	if completed != 2 {
		t.Errorf("ledger: %d completed exports for 2024-03-10, want one each for to_lake and to_postgres", completed)
	}
}
