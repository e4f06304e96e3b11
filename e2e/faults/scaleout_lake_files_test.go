package faults

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// On a DuckLake (Postgres catalog, data in a folder) with two workers and
// no local kernels, a block's downstream blocks of the same partition read
// its output from the Parquet file its worker wrote, not from a table sent
// through the coordinator, and the SQL block daily_customer_metrics, whose
// one input is raw_orders' output, runs on a worker too (in its DuckDB).
// In the demo: daily_customer_metrics reads raw_orders' file, clv reads
// daily_customer_metrics' file, and segments and every segment_stats child
// read clv's file. The coordinator sends none of those rows, and the lake
// then holds exactly what the single-machine reference holds, with the
// suite's end invariants.
func TestScaleOutOnLakeDownstreamReadsUpstreamFile(t *testing.T) {
	tr, rows := lakeFilesBackfill(t, nil)
	if want := 3*rows.clvParts + rows.segments; tr.InputFiles < want || tr.InputsRefused != 0 {
		t.Errorf("tasks named %d upstream files (%d refused), want at least %d (daily_customer_metrics, clv and segments once a partition, and each of the %d segment_stats children), none refused", tr.InputFiles, tr.InputsRefused, want, rows.segments)
	}
	// What the coordinator still sends: each child its one segment row, and
	// segment_report (a reduce) the union of the children's outputs. Seen
	// before: 62,199 input rows (clv's rows went out for segments and once
	// per child, daily_customer_metrics' to clv); then 12,507 while SQL
	// blocks ran on the coordinator (daily_customer_metrics' rows to clv).
	// Less than one copy of a product more, since a retried task is sent again.
	if want := rows.segments + rows.stats; tr.InputRows >= want+rows.dcm {
		t.Errorf("the coordinator sent %d input rows to workers, want %d (segments and segment_stats rows), never daily_customer_metrics' %d or clv's %d", tr.InputRows, want, rows.dcm, rows.clv)
	}
	if tr.OutputRows >= rows.dcm {
		t.Errorf("the coordinator received %d output rows: daily_customer_metrics' %d came back", tr.OutputRows, rows.dcm)
	}
	// The SQL block's output is files workers wrote (only a worker's
	// WriteLakeFile names a file strata-…).
	if n := workerFilesOf(t, rows.dir, "daily_customer_metrics"); n < rows.clvParts {
		t.Errorf("%d of daily_customer_metrics' files were written by workers, want one a partition (%d)", n, rows.clvParts)
	}
}

// A worker that uses no data folder (--send-outputs: as one that does not
// mount it) refuses a task naming an upstream's file before running it;
// the coordinator sends that task the tables, and the backfill ends with
// the reference content all the same.
func TestScaleOutOnLakeWorkerWithoutDataFolderGetsTables(t *testing.T) {
	tr, _ := lakeFilesBackfill(t, map[string][]string{"w2": {"--send-outputs"}})
	if tr.InputFiles == 0 || tr.InputsRefused == 0 {
		t.Errorf("tasks named %d upstream files, %d refused: want some named, and some refused by w2", tr.InputFiles, tr.InputsRefused)
	}
}

// lakeRows are row counts of the demo's products on the lake.
type lakeRows struct {
	clv, clvParts, segments, stats, dcm int64
	dir                                 string
}

// lakeFilesBackfill backfills a week of the demo on a Postgres-catalog lake
// with workers w1 and w2 (extra flags by name) and the coordinator running
// nothing itself; it checks the end against the reference and returns what
// went through the coordinator, as it reported when it stopped.
func lakeFilesBackfill(t *testing.T, extra map[string][]string) (trafficCounts, lakeRows) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers on a DuckLake")
	}
	exttest.Require(t, "ducklake", "postgres")
	d := NewDriver(t)
	pg := pgtest.Start(t)
	trial := Trial{Mode: "server", Publish: "partition", Concurrency: 4}
	trial.From, trial.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "lake")
	writeLakeProject(t, d, dir, pg)
	t.Setenv("STRATA_WORKER_FILES_MIN_ROWS", "1") // the demo's outputs are small

	addr := freeAddr(t)
	srv := strataproc.Start(t, d.Bin, dir, token, "--listen-workers", addr, "--no-local")
	tokenFile := filepath.Join(dir, ".strata", "worker-token")
	var workers []*exec.Cmd
	for _, name := range []string{"w1", "w2"} {
		workers = append(workers, startWorker(t, d.Bin, "nats://"+addr, tokenFile, name, extra[name]...))
	}
	waitWorkers(t, d.Bin, dir, 2)
	var launched struct {
		ID string `json:"id"`
	}
	cpu0 := procCPU(t, srv.Cmd.Process.Pid)
	srv.Call(t, http.MethodPost, "/backfills", trial.specJSON(), &launched)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	cpu := procCPU(t, srv.Cmd.Process.Pid) - cpu0
	t.Logf("backfill ended %s (%+v); coordinator CPU %v, %.1f ms a partition", st.State, st.Progress, cpu,
		float64(cpu.Microseconds())/1000/float64(max(st.Progress.Succeeded, 1)))
	srv.Stop(t)
	for _, w := range workers {
		_ = w.Process.Signal(syscall.SIGTERM)
	}
	d.reportEnd(t, trial, dir, launched.ID)

	tr := coordinatorTraffic(t, srv.Stderr.String())
	t.Logf("coordinator traffic: %+v", tr)
	w, ok, err := openLake(dir)
	if !ok || err != nil {
		t.Fatalf("open the lake: %v", err)
	}
	defer w.close()
	r := lakeRows{dir: dir}
	if err := w.db.QueryRow(`SELECT (SELECT count(*) FROM clv__clv), (SELECT count(DISTINCT _partition) FROM clv__clv),
		(SELECT count(*) FROM clv__segments), (SELECT count(*) FROM clv__segment_stats), (SELECT count(*) FROM daily_customer_metrics)`).Scan(&r.clv, &r.clvParts, &r.segments, &r.stats, &r.dcm); err != nil {
		t.Fatal(err)
	}
	t.Logf("rows: %+v", r)
	if n, all := workerFiles(t, dir); n == 0 {
		t.Errorf("none of the lake's %d data files was written by a worker", all)
	}
	return tr, r
}

// trafficCounts is the coordinator's line about what went through it
// (remote.Traffic), printed when it stops.
type trafficCounts struct{ InputRows, OutputRows, InputFiles, InputsRefused, OutputFiles int64 }

func coordinatorTraffic(t *testing.T, stderr string) trafficCounts {
	t.Helper()
	m := regexp.MustCompile(`tables through the coordinator: (\d+) input rows sent, (\d+) output rows received; files on the data folder instead: (\d+) inputs named by file \((\d+) tasks refused theirs\), (\d+) outputs written by workers`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the coordinator did not report its traffic when it stopped:\n%s", stderr)
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	return trafficCounts{n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5])}
}

// workerFilesOf counts the live data files of a product's storage table
// that workers wrote.
func workerFilesOf(t *testing.T, dir, product string) int64 {
	t.Helper()
	w, ok, err := openLake(dir)
	if !ok || err != nil {
		t.Fatalf("open the lake of %s: %v", dir, err)
	}
	defer w.close()
	var n int64
	err = w.db.QueryRow(`SELECT count(*) FROM __ducklake_metadata_lake.ducklake_data_file f JOIN __ducklake_metadata_lake.ducklake_table tb USING (table_id)
		WHERE f.end_snapshot IS NULL AND tb.end_snapshot IS NULL AND tb.table_name LIKE ? AND (f.path LIKE 'strata-%' OR f.path LIKE '%/strata-%')`, "%"+product+"%").Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
