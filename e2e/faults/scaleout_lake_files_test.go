package faults

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/s3test"
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
	// weekly_customer_rollup reads the week's committed versions of
	// daily_customer_metrics (another partitioning: not this run's
	// outputs): a worker reads them from the lake itself, with the
	// catalog's password sent sealed, runs the query and writes the file.
	// Seen before: 0 inputs, 0 SQL tasks (it ran in the coordinator's
	// warehouse).
	if tr.LakeInputs < rows.weeks || tr.LakeSQL < rows.weeks || rows.secretCalls == 0 {
		t.Errorf("workers read %d inputs from the lake and ran %d SQL tasks over them (asking for the password %d times), want weekly_customer_rollup's %d partitions", tr.LakeInputs, tr.LakeSQL, rows.secretCalls, rows.weeks)
	}
	if n := workerFilesOf(t, rows.dir, "weekly_customer_rollup"); n < rows.weeks {
		t.Errorf("%d of weekly_customer_rollup's files were written by workers, want one a week (%d)", n, rows.weeks)
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

// Workers that cannot read the lake (their DuckDB has no ducklake
// extension) refuse the weekly rollup's tasks before running anything
// (ErrNotHere); the coordinator runs the rollup in its warehouse, and the
// backfill ends with the reference content all the same: a worker's
// failure is a fallback, never a wrong or a failed partition.
func TestScaleOutOnLakeWorkerWithoutLakeExtensionLeavesRollupToCoordinator(t *testing.T) {
	noExt := "env:STRATA_EXTENSION_DIR=" + t.TempDir()
	tr, rows := lakeFilesBackfill(t, map[string][]string{"w1": {noExt}, "w2": {noExt}})
	if tr.LakeInputs < rows.weeks || tr.LakeSQL != 0 {
		t.Errorf("workers were sent %d inputs to read from the lake and ran %d SQL tasks over them, want %d sent and none run (they cannot load ducklake)", tr.LakeInputs, tr.LakeSQL, rows.weeks)
	}
	if tr.InputsRefused < rows.weeks {
		t.Errorf("%d tasks refused, want at least the rollup's %d", tr.InputsRefused, rows.weeks)
	}
	if n := workerFilesOf(t, rows.dir, "weekly_customer_rollup"); n != 0 {
		t.Errorf("%d of weekly_customer_rollup's files were written by workers, want none", n)
	}
}

// lakeRows are row counts of the demo's products on the lake.
type lakeRows struct {
	clv, clvParts, segments, stats, dcm, weeks int64
	secretCalls                                int // NATS messages naming the lake's password secret
	keyCalls                                   int // NATS messages naming the bucket's s3 secret (on S3)
	dir                                        string
}

// lakeSetup is how lakeFilesBackfillOn sets up the lake and its workers.
type lakeSetup struct {
	extra map[string][]string // more flags (or env:K=V) for a worker, by name
	s3    *s3test.Server      // data in bucket "lake" there, not in a folder
}

// lakeFilesBackfill backfills a week of the demo on a Postgres-catalog lake
// with workers w1 and w2 (extra flags by name) and the coordinator running
// nothing itself; it checks the end against the reference and returns what
// went through the coordinator, as it reported when it stopped.
func lakeFilesBackfill(t *testing.T, extra map[string][]string) (trafficCounts, lakeRows) {
	t.Helper()
	return lakeFilesBackfillOn(t, lakeSetup{extra: extra})
}

// lakeFilesBackfillOn is lakeFilesBackfill on the lake setup says.
func lakeFilesBackfillOn(t *testing.T, setup lakeSetup) (trafficCounts, lakeRows) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers on a DuckLake")
	}
	extra := setup.extra
	exts := []string{"ducklake", "postgres"}
	if setup.s3 != nil {
		exts = append(exts, "httpfs")
	}
	exttest.Require(t, exts...)
	d := NewDriver(t)
	pg := pgtest.Start(t)
	trial := Trial{Mode: "server", Publish: "partition", Concurrency: 4}
	trial.From, trial.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "lake")
	needles := []string{pg.Password, `"pg_lake"`}
	if setup.s3 != nil {
		writeLakeS3Project(t, d, dir, pg, setup.s3)
		needles = append(needles, setup.s3.KeyID, setup.s3.Secret, `"lake_s3.`)
	} else {
		writeLakeProject(t, d, dir, pg)
	}
	t.Setenv("STRATA_WORKER_FILES_MIN_ROWS", "1") // the demo's outputs are small

	addr := freeAddr(t)
	srv := strataproc.Start(t, d.Bin, dir, token, "--listen-workers", addr, "--no-local")
	tokenFile := filepath.Join(dir, ".strata", "worker-token")
	var workers []*exec.Cmd
	for _, name := range []string{"w1", "w2"} {
		workers = append(workers, startWorker(t, d.Bin, "nats://"+addr, tokenFile, name, extra[name]...))
	}
	waitWorkers(t, d.Bin, dir, 2)
	spy := spyNATS(t, "nats://"+addr, tokenFile, needles...)
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
	// The catalog's password is in no log and crossed NATS only sealed:
	// the spy saw the tasks go by, and workers ask for the secret pg_lake
	// by name when a task reads the lake.
	if n := spy.seen(pg.Password); n > 0 {
		t.Errorf("the lake's password crossed NATS in clear in %d messages", n)
	}
	t.Logf("NATS: %d messages seen, %d naming the secret pg_lake, none holding its value in clear", spy.total(), spy.seen(`"pg_lake"`))
	if spy.total() == 0 {
		t.Errorf("the NATS spy saw no message")
	}
	secretsInClear := []string{pg.Password}
	if setup.s3 != nil {
		// The bucket's key, too: only sealed on NATS, in no log.
		secretsInClear = append(secretsInClear, setup.s3.KeyID, setup.s3.Secret)
		for _, v := range []string{setup.s3.KeyID, setup.s3.Secret} {
			if n := spy.seen(v); n > 0 {
				t.Errorf("the lake bucket's key crossed NATS in clear in %d messages", n)
			}
		}
		t.Logf("NATS: %d messages naming the s3 secret lake_s3 (the sealed key calls), none holding its key in clear", spy.seen(`"lake_s3.`))
	}
	for _, v := range secretsInClear {
		if strings.Contains(srv.Stderr.String(), v) {
			t.Errorf("the coordinator's log holds a credential of the lake")
		}
	}
	for i, w := range workers {
		_ = w.Wait()
		for _, v := range secretsInClear {
			if strings.Contains(w.Stdout.(*bytes.Buffer).String(), v) {
				t.Errorf("worker w%d's log holds a credential of the lake", i+1)
			}
		}
	}
	d.reportEnd(t, trial, dir, launched.ID)

	tr := coordinatorTraffic(t, srv.Stderr.String())
	t.Logf("coordinator traffic: %+v", tr)
	w, ok, err := openLake(dir)
	if !ok || err != nil {
		t.Fatalf("open the lake: %v", err)
	}
	defer w.close()
	r := lakeRows{dir: dir, secretCalls: spy.seen(`"pg_lake"`), keyCalls: spy.seen(`"lake_s3.`)}
	if err := w.db.QueryRow(`SELECT (SELECT count(*) FROM clv__clv), (SELECT count(DISTINCT _partition) FROM clv__clv),
		(SELECT count(*) FROM clv__segments), (SELECT count(*) FROM clv__segment_stats), (SELECT count(*) FROM daily_customer_metrics),
		(SELECT count(DISTINCT _partition) FROM clv__weekly_customer_rollup)`).Scan(&r.clv, &r.clvParts, &r.segments, &r.stats, &r.dcm, &r.weeks); err != nil {
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
type trafficCounts struct {
	InputRows, OutputRows, InputFiles, InputsRefused, OutputFiles int64
	LakeInputs, LakeSQL                                           int64
}

func coordinatorTraffic(t *testing.T, stderr string) trafficCounts {
	t.Helper()
	m := regexp.MustCompile(`tables through the coordinator: (\d+) input rows sent, (\d+) output rows received; files on the data folder instead: (\d+) inputs named by file \((\d+) tasks refused theirs\), (\d+) outputs written by workers; committed lake versions read by workers: (\d+) inputs, (\d+) SQL tasks ran on them`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("the coordinator did not report its traffic when it stopped:\n%s", stderr)
	}
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	return trafficCounts{n(m[1]), n(m[2]), n(m[3]), n(m[4]), n(m[5]), n(m[6]), n(m[7])}
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

// natsSpy counts the messages on a NATS server that hold each needle in
// clear (in their data or headers).
type natsSpy struct {
	mu   sync.Mutex
	hits map[string]int
	all  int
}

func (s *natsSpy) seen(needle string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[needle]
}

func (s *natsSpy) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all
}

// spyNATS subscribes to every subject of the coordinator's NATS server (as
// a worker, with its token) and counts the messages holding each needle.
func spyNATS(t *testing.T, url, tokenFile string, needles ...string) *natsSpy {
	t.Helper()
	tok, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, nats.Token(strings.TrimSpace(string(tok))))
	if err != nil {
		t.Fatalf("spy on NATS: %v", err)
	}
	t.Cleanup(nc.Close)
	spy := &natsSpy{hits: map[string]int{}}
	if _, err := nc.Subscribe(">", func(m *nats.Msg) {
		spy.mu.Lock()
		defer spy.mu.Unlock()
		spy.all++
		for _, needle := range needles {
			hit := bytes.Contains(m.Data, []byte(needle))
			for _, vs := range m.Header {
				for _, v := range vs {
					hit = hit || strings.Contains(v, needle)
				}
			}
			if hit {
				spy.hits[needle]++
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return spy
}
