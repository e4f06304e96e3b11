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
// no local kernels, a Go block's downstream Go blocks read its output from
// the Parquet file its worker wrote, not from a table sent through the
// coordinator. In the demo, clv's output goes to the dynamic segments
// block and to every segment_stats child: the coordinator sends none of
// its rows, the workers read the file, and the lake then holds exactly what
// the single-machine reference holds, with the suite's end invariants.
func TestScaleOutOnLakeDownstreamReadsUpstreamFile(t *testing.T) {
	tr, rows := lakeFilesBackfill(t, nil)
	// Every partition's segments block, and each of its segment_stats
	// children, named clv's file.
	if want := rows.clvParts + rows.segments; tr.InputFiles < want || tr.InputsRefused != 0 {
		t.Errorf("tasks named %d upstream files (%d refused), want at least %d (segments once a partition, and each of the %d segment_stats children), none refused", tr.InputFiles, tr.InputsRefused, want, rows.segments)
	}
	// What the coordinator still sends: clv the output of the SQL block
	// daily_customer_metrics (SQL runs here), each child its one segment
	// row, and segment_report (a reduce) the union of the children's
	// outputs. Before, clv's rows went out too, once for segments and once
	// per child (seen: 62,199 input rows sent for these 12,507). Less than
	// one copy of clv more, since a retried task is sent again.
	if want := rows.dcm + rows.segments + rows.stats; tr.InputRows >= want+rows.clv {
		t.Errorf("the coordinator sent %d input rows to workers, want %d (daily_customer_metrics, segments and segment_stats rows), never clv's %d", tr.InputRows, want, rows.clv)
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
type lakeRows struct{ clv, clvParts, segments, stats, dcm int64 }

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
	srv.Call(t, http.MethodPost, "/backfills", trial.specJSON(), &launched)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("backfill ended %s (%+v)", st.State, st.Progress)
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
	var r lakeRows
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
