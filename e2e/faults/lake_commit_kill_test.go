package faults

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// holdLakeCommits makes every DuckLake commit of the lake in pg wait: a
// psql session holds an EXCLUSIVE lock on the catalog's snapshot table,
// which each commit inserts its snapshot into, while reads go on. The
// returned function releases it.
func holdLakeCommits(t *testing.T, pg *pgtest.Cluster) func() {
	t.Helper()
	cmd := exec.Command(filepath.Join(pg.BinDir, "psql"), "-h", pg.Host, "-p", strconv.Itoa(pg.Port), "-U", pg.User, "-d", pg.Database, "-X", "-q", "-v", "ON_ERROR_STOP=1")
	cmd.Env = append(os.Environ(), "PGPASSWORD="+pg.Password)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(stdin, "BEGIN;\nLOCK TABLE ducklake_snapshot IN EXCLUSIVE MODE;\nSELECT 'held';\n"); err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if released {
			return
		}
		released = true
		_, _ = io.WriteString(stdin, "ROLLBACK;\n")
		stdin.Close()
		_ = cmd.Wait()
	}
	t.Cleanup(release)
	return release
}

// waitingCommits counts the catalog's sessions that wait for a lock.
func waitingCommits(t *testing.T, pg *pgtest.Cluster) int {
	t.Helper()
	n, _ := strconv.Atoi(strings.TrimSpace(pg.Psql(t, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")))
	return n
}

// The coordinator is killed (-9) in the middle of a commit on the lake:
// its Parquet written to the data folder, its catalog transaction waiting
// in Postgres (held there by a lock the test takes). Started again, the
// backfill ends succeeded with exactly the single-machine reference
// content and the suite's invariants (no half version visible, nothing
// published twice or lost, no false success); the killed commit's files
// are not in the catalog.
func TestScaleOutOnLakeCoordinatorKilledMidCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary on a DuckLake and kills it mid-commit")
	}
	exttest.Require(t, "ducklake", "postgres")
	d := NewDriver(t)
	pg := pgtest.Start(t)
	tr := Trial{Mode: "server", Publish: "partition", Concurrency: 4}
	tr.From, tr.To = weekRange(2)
	dir := filepath.Join(t.TempDir(), "lake")
	writeLakeProject(t, d, dir, pg)
	srv := strataproc.Start(t, d.Bin, dir, token)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 2 })
	// The commit held must be one that wrote Parquet (not one of run
	// events only, nor of rows small enough to be inlined in the
	// catalog): a file on disk that the catalog does not list yet. Up to
	// three commits are let through to find one.
	var files []string
	for attempt := 1; ; attempt++ {
		release := holdLakeCommits(t, pg)
		deadline := time.Now().Add(2 * time.Minute)
		for waitingCommits(t, pg) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("no commit of the coordinator waited on the held catalog\nserver log:\n%s", srv.Stderr)
			}
			time.Sleep(50 * time.Millisecond)
		}
		files = dataFiles(t, dir)
		if uncatalogued(t, pg, files) > 0 || attempt == 3 {
			srv.Kill()
			release()
			break
		}
		release()
	}
	t.Logf("killed with a commit waiting in the catalog; %d Parquet files in the data folder", len(files))

	srv = strataproc.Start(t, d.Bin, dir, token)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("after the restart the backfill ended %s (%+v)", st.State, st.Progress)
	srv.Stop(t)
	d.reportEnd(t, tr, dir, launched.ID)
	catalogued := catalogPaths(t, pg)
	atKill := map[string]bool{}
	for _, f := range files {
		atKill[f] = true
	}
	stray := 0
	for _, f := range dataFiles(t, dir) {
		if !strings.Contains(catalogued, filepath.Base(f)) {
			stray++
			if !atKill[f] {
				t.Errorf("%s is in no catalog table and was not there at the kill: a write after the restart left it", f)
			}
		}
	}
	if stray == 0 {
		t.Errorf("no file of the killed commit in the data folder: the kill did not land between its Parquet and its catalog commit")
	}
	t.Logf("%d Parquet files not in the catalog after the restart (the killed commit's, kept until older than the orphan grace)", stray)
}

// catalogPaths lists every file path the lake's catalog knows, as text.
func catalogPaths(t *testing.T, pg *pgtest.Cluster) string {
	t.Helper()
	return pg.Psql(t, "SELECT path FROM ducklake_data_file UNION ALL SELECT path FROM ducklake_delete_file UNION ALL SELECT path FROM ducklake_files_scheduled_for_deletion")
}

// uncatalogued counts the files the catalog does not list.
func uncatalogued(t *testing.T, pg *pgtest.Cluster, files []string) int {
	t.Helper()
	catalogued := catalogPaths(t, pg)
	n := 0
	for _, f := range files {
		if !strings.Contains(catalogued, filepath.Base(f)) {
			n++
		}
	}
	return n
}

// dataFiles are the Parquet files under the project's lake data folder.
func dataFiles(t *testing.T, dir string) []string {
	t.Helper()
	yaml, err := os.ReadFile(filepath.Join(dir, "strata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(yaml), "data_path: ")
	data, _, _ := strings.Cut(rest, "\n")
	var out []string
	_ = filepath.WalkDir(strings.TrimSpace(data), func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".parquet") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
