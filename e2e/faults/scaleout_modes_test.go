package faults

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/e2e/natscluster"
	"github.com/stratahq/strata/e2e/netcut"
	"github.com/stratahq/strata/e2e/strataproc"
)

// blockRun is one Go block run of a backfill as the runs API reports it.
type blockRun struct {
	Run, Block, Worker, Engine string
}

// goBlockRuns lists a backfill's Go block runs (SQL blocks run in the
// coordinator's DuckDB and name no worker) and the engine of each run.
func goBlockRuns(t *testing.T, srv *strataproc.Server, id string) (runs []blockRun, runEngines map[string]int) {
	t.Helper()
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+id+"/partitions?limit=100", "", &parts)
	runEngines = map[string]int{}
	for _, p := range parts.Partitions {
		if p.RunID == "" {
			continue // not started yet
		}
		var run struct {
			Engine string `json:"engine"`
			Blocks []struct {
				Block  string `json:"block"`
				Worker string `json:"worker"`
				Engine string `json:"engine"`
			} `json:"blocks"`
		}
		srv.Call(t, http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "", &run)
		runEngines[run.Engine]++
		for _, b := range run.Blocks {
			if b.Block == "daily_customer_metrics" || b.Block == "weekly_customer_rollup" {
				continue
			}
			runs = append(runs, blockRun{p.RunID, b.Block, b.Worker, b.Engine})
		}
	}
	return runs, runEngines
}

// startScaleOut starts a coordinator that runs nothing itself, with an
// embedded NATS server on loopback behind TLS and a 2 s lease, and workers
// given as name and extra flags.
func startScaleOut(t *testing.T, d *Driver, dir string, workers map[string][]string) (*strataproc.Server, map[string]*exec.Cmd, workerLink) {
	t.Helper()
	if out, code := strataproc.Run(t, d.Bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	// TLS on loopback too (--worker-tls on): workers pin the self-signed
	// certificate by the fingerprint the coordinator prints.
	srv := strataproc.Start(t, d.Bin, dir, token, "--listen-workers", "127.0.0.1:0", "--worker-tls", "on", "--no-local", "--ack-wait", "2s")
	printed := strings.Join(srv.Printed, "\n")
	natsURL := regexp.MustCompile(`tls://127\.0\.0\.1:\d+`).FindString(printed)
	pin := regexp.MustCompile(`--tls-pin ([0-9a-f]{64})`).FindStringSubmatch(printed)
	if natsURL == "" || pin == nil {
		t.Fatalf("strata start --listen-workers --worker-tls on did not say where and how workers connect:\n%s", printed)
	}
	tokenFile := filepath.Join(dir, ".strata", "worker-token")
	// Without the pin, a worker does not trust the self-signed certificate.
	if out, code := strataproc.Run(t, d.Bin, "worker", "--nats", natsURL, "--token-file", tokenFile, "--slots", "1"); code == 0 || !strings.Contains(out, "certificate") {
		t.Fatalf("worker without --tls-pin: exit %d\n%s", code, out)
	}
	procs := map[string]*exec.Cmd{}
	for name, extra := range workers {
		procs[name] = startWorker(t, d.Bin, natsURL, tokenFile, name, append([]string{"--tls-pin", pin[1]}, extra...)...)
	}
	waitWorkers(t, d.Bin, dir, len(workers))
	return srv, procs, workerLink{url: natsURL, pin: pin[1], tokenFile: tokenFile}
}

// workerLink is how workers reach a coordinator started by startScaleOut.
type workerLink struct{ url, pin, tokenFile string }

// endChecks stops everything and checks the suite's end invariants.
func endChecks(t *testing.T, d *Driver, tr Trial, dir, id string, srv *strataproc.Server, workers map[string]*exec.Cmd) {
	t.Helper()
	for _, w := range workers {
		_ = w.Process.Signal(syscall.SIGTERM)
	}
	srv.Stop(t)
	d.reportEnd(t, tr, dir, id)
}

// Compiled mode with workers, paused and resumed: the coordinator builds
// the pipeline version once and ships the binary; a worker of the same
// platform (w1) runs the Go blocks compiled, a worker started with --engine
// interp (w2) runs the same tasks interpreted. Each block run says which
// worker and which engine ran it, the run says compiled. Mid-way the
// backfill is paused: the partitions in flight finish and nothing new
// starts on any worker while it is paused; after resume it ends succeeded.
// The content equals the single-machine reference run, with the suite's
// end invariants (one current version per partition, nothing published
// twice). Workers connect over TLS, pinning the coordinator's self-signed
// certificate.
func TestScaleOutCompiledWorkersPauseResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers")
	}
	d := NewDriver(t)
	// A listener off loopback without TLS is refused, token or not.
	open := filepath.Join(t.TempDir(), "open")
	if out, code := strataproc.Run(t, d.Bin, "start", open, "--token", token, "--listen-workers", "0.0.0.0:0", "--worker-tls", "off"); code == 0 || !strings.Contains(out, "without TLS refused") {
		t.Fatalf("start --listen-workers 0.0.0.0:0 --worker-tls off: exit %d\n%s", code, out)
	}
	tr := Trial{Mode: "server", Publish: "atomic", Concurrency: 2, Engine: "compiled"}
	tr.From, tr.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "compiled")
	builds := t.TempDir()
	srv, workers, _ := startScaleOut(t, d, dir, map[string][]string{
		"w1": {"--builds", builds},
		"w2": {"--engine", "interp"},
	})
	out, _ := exec.Command(d.Bin, "workers", dir).CombinedOutput()
	if !regexp.MustCompile(`w1 .*compiled \(\w+/\w+\)`).Match(out) || !regexp.MustCompile(`w2 .*interpreted`).Match(out) {
		t.Errorf("strata workers does not say which worker runs compiled builds:\n%s", out)
	}
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	pauseAndResume(t, srv, launched.ID)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("backfill ended %s (%+v) %q", st.State, st.Progress, st.Message)

	runs, engines := goBlockRuns(t, srv, launched.ID)
	by := map[string]int{}
	for _, r := range runs {
		by[r.Worker+" "+r.Engine]++
		if want := map[string]string{"w1": "compiled", "w2": "interp"}[r.Worker]; r.Engine != want {
			t.Errorf("run %s block %s: worker %q engine %q, want %s on that worker", r.Run, r.Block, r.Worker, r.Engine, want)
		}
	}
	t.Logf("Go block runs by worker and engine: %v; runs by engine: %v", by, engines)
	if by["w1 compiled"] == 0 || by["w2 interp"] == 0 {
		t.Errorf("block runs %v: want compiled runs on w1 and interpreted ones on w2", by)
	}
	if len(engines) != 1 || engines["compiled"] == 0 {
		t.Errorf("runs by engine %v: want every run recorded as compiled", engines)
	}
	kept, _ := filepath.Glob(filepath.Join(builds, "worker-*"))
	if len(kept) != 1 {
		t.Errorf("w1 keeps %d builds in %s, want the one it fetched", len(kept), builds)
	}
	endChecks(t, d, tr, dir, launched.ID, srv, workers)
}

// pauseAndResume pauses a running backfill once 2 partitions succeeded,
// checks that the partitions in flight finish and that then nothing moves
// (no partition, no Go block run on any worker) for two leases, and
// resumes it.
func pauseAndResume(t *testing.T, srv *strataproc.Server, id string) {
	t.Helper()
	srv.WaitFor(t, id, func(p strataproc.Progress) bool { return p.Succeeded >= 2 })
	var paused struct {
		State string `json:"state"`
	}
	srv.Call(t, http.MethodPost, "/backfills/"+id+"/pause", "", &paused)
	if paused.State != "paused" {
		t.Fatalf("after pause: state %q", paused.State)
	}
	// The partitions in flight finish; then nothing moves.
	pausedAt := 0
	deadline := time.Now().Add(time.Minute)
	for {
		var st struct {
			Progress struct {
				Running, Succeeded, Total int
			} `json:"progress"`
		}
		srv.Call(t, http.MethodGet, "/backfills/"+id, "", &st)
		if st.Progress.Running == 0 {
			if pausedAt = st.Progress.Succeeded; pausedAt >= st.Progress.Total {
				t.Fatalf("the backfill finished before the pause took hold (%+v): nothing was left to pause", st)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("paused backfill still has %d partitions running after a minute", st.Progress.Running)
		}
		time.Sleep(100 * time.Millisecond)
	}
	before, _ := goBlockRuns(t, srv, id)
	time.Sleep(4 * time.Second) // two leases: a task handed out by mistake would have run by now
	var st strataproc.Backfill
	srv.Call(t, http.MethodGet, "/backfills/"+id, "", &st)
	after, _ := goBlockRuns(t, srv, id)
	if st.State != "paused" || st.Progress.Succeeded != pausedAt || len(after) != len(before) {
		t.Fatalf("while paused: state %s, %d partitions succeeded (was %d), %d Go block runs (was %d): want nothing to move",
			st.State, st.Progress.Succeeded, pausedAt, len(after), len(before))
	}
	t.Logf("paused at %d partitions succeeded, %d Go block runs", pausedAt, len(before))
	srv.Call(t, http.MethodPost, "/backfills/"+id+"/resume", "", &paused)
}

// A worker's network is cut mid-backfill: a silent partition between it
// and the coordinator's NATS server (a proxy that drops every byte; the
// connections stay open). Its tasks come back when the lease runs out and
// the other worker runs them; the network heals after the end, so whatever
// the cut worker finished reaches the coordinator late and must change
// nothing. The suite's end invariants hold: succeeded, one current version
// per partition, nothing published twice, content equal to the reference.
func TestScaleOutNetworkCut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers")
	}
	d := NewDriver(t)
	tr := Trial{Mode: "server", Publish: "atomic", Concurrency: 4}
	tr.From, tr.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "netcut")
	srv, workers, link := startScaleOut(t, d, dir, map[string][]string{"w2": nil})
	target := strings.TrimPrefix(link.url, "tls://")
	proxy, err := netcut.Start(target)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	workers["w1"] = startWorker(t, d.Bin, "tls://"+proxy.Addr(), link.tokenFile, "w1", "--tls-pin", link.pin)
	waitWorkers(t, d.Bin, dir, 2)

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 3 })
	proxy.Cut()
	// What w1 sent before the cut is in within a second; from then on its
	// count of Go block runs must not grow until the network heals.
	time.Sleep(time.Second)
	countW1 := func() int {
		runs, _ := goBlockRuns(t, srv, launched.ID)
		n := 0
		for _, r := range runs {
			if r.Worker == "w1" {
				n++
			}
		}
		return n
	}
	atCut := countW1()
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("backfill ended %s (%+v); w1 had %d Go block runs at the cut", st.State, st.Progress, atCut)
	if n := countW1(); n != atCut {
		t.Errorf("w1 was cut off and still has %d Go block runs at the end, %d at the cut", n, atCut)
	}
	links := proxy.Links()
	proxy.Heal()
	// w1 reconnects through the healed link; its stale results, if any,
	// arrive now and must change nothing.
	deadline := time.Now().Add(30 * time.Second)
	for proxy.Links() == links && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if proxy.Links() == links {
		t.Errorf("w1 did not reconnect within 30s after the network healed")
	}
	time.Sleep(3 * time.Second)
	runs, _ := goBlockRuns(t, srv, launched.ID)
	ran := map[string]int{}
	for _, r := range runs {
		ran[r.Worker]++
	}
	t.Logf("Go block runs by worker at the end: %v", ran)
	if ran["w1"] != atCut {
		t.Errorf("after the network healed w1 has %d Go block runs, %d at the cut: its late results changed the record", ran["w1"], atCut)
	}
	if ran["w2"] == 0 || ran[""] > 0 {
		t.Errorf("Go block runs by worker %v: want w2 to have taken over, every run attributed", ran)
	}
	endChecks(t, d, tr, dir, launched.ID, srv, workers)
}

// The coordinator and two workers use an external 3-node NATS cluster
// (embedded in this test) with streams of 3 replicas (--nats-replicas 3).
// Mid-backfill the node leading the task stream is shut down: JetStream
// elects another, clients reconnect to the remaining nodes, tasks whose
// lease ran out are redelivered. The backfill ends succeeded with the
// suite's end invariants (one current version per partition, nothing
// published twice, content equal to the single-machine reference). About a
// minute here, so it runs in `make soak-scaleout`; make test has the
// pool-level kernel/remote TestClusterLeaderChange.
func TestScaleOutClusterLeaderChange(t *testing.T) {
	if os.Getenv("STRATA_SOAK_SCALEOUT") == "" {
		t.Skip("set STRATA_SOAK_SCALEOUT=1 (make soak-scaleout): a 3-node NATS cluster, a coordinator and two workers")
	}
	d := NewDriver(t)
	const natsToken = "cluster-token-0123456789"
	cl, err := natscluster.Start(3, natsToken, func(int) string { return t.TempDir() })
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Shutdown()
	tr := Trial{Mode: "server", Publish: "atomic", Concurrency: 4}
	tr.From, tr.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "cluster")
	if out, code := strataproc.Run(t, d.Bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	srv := strataproc.Start(t, d.Bin, dir, token, "--workers", cl.URLs, "--nats-token", natsToken, "--nats-replicas", "3", "--no-local", "--ack-wait", "2s")
	tokenFile := filepath.Join(t.TempDir(), "nats-token")
	if err := os.WriteFile(tokenFile, []byte(natsToken), 0o600); err != nil {
		t.Fatal(err)
	}
	workers := map[string]*exec.Cmd{}
	for _, name := range []string{"w1", "w2"} {
		workers[name] = startWorker(t, d.Bin, cl.URLs, tokenFile, name)
	}
	waitWorkers(t, d.Bin, dir, 2)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 3 })

	nc, err := nats.Connect(cl.URLs, nats.Token(natsToken))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	leader := ""
	for deadline := time.Now().Add(30 * time.Second); leader == "" && time.Now().Before(deadline); {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		if st, err := js.Stream(ctx, "STRATA_TASKS_default"); err == nil && st.CachedInfo().Cluster != nil {
			leader = st.CachedInfo().Cluster.Leader
		}
		cancel()
	}
	if !cl.Stop(leader) {
		t.Fatalf("task stream leader %q: no such node", leader)
	}
	t.Logf("shut down %s, the task stream's leader", leader)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("backfill ended %s (%+v)", st.State, st.Progress)
	runs, _ := goBlockRuns(t, srv, launched.ID)
	ran := map[string]int{}
	for _, r := range runs {
		ran[r.Worker]++
	}
	t.Logf("Go block runs by worker: %v", ran)
	endChecks(t, d, tr, dir, launched.ID, srv, workers)
}
