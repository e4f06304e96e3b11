package faults

import (
	"bytes"
	"net"
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

	"github.com/stratahq/strata/e2e/strataproc"
)

// Scale-out under faults: a coordinator that runs nothing itself
// (--no-local, an embedded NATS server on loopback, a 2 s lease) and three
// real `strata worker` processes run an atomic demo backfill. Mid-way one
// worker is killed with SIGKILL and another frozen with SIGSTOP (it keeps
// its tasks and pull requests and answers nothing); their tasks come back
// when the lease runs out and the third finishes the backfill. The frozen
// one is then woken, so its stale results reach the coordinator, which must
// ignore them. The suite's end invariants hold: the backfill succeeded, one
// current version per partition and one version per partition from the
// backfill (nothing published twice), status counts equal to the catalog,
// content equal to the clean single-machine reference run.
func TestScaleOutSurvivesKilledAndFrozenWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and three workers")
	}
	d := NewDriver(t)
	tr := Trial{Mode: "server", Publish: "atomic", Concurrency: 6}
	tr.From, tr.To = weekRange(1)
	dir := filepath.Join(t.TempDir(), "scaleout")
	if out, code := strataproc.Run(t, d.Bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	srv := strataproc.Start(t, d.Bin, dir, token, "--listen-workers", "127.0.0.1:0", "--no-local", "--ack-wait", "2s")
	natsURL := regexp.MustCompile(`nats://127\.0\.0\.1:\d+`).FindString(strings.Join(srv.Printed, "\n"))
	if natsURL == "" {
		t.Fatalf("strata start --listen-workers did not say where workers connect:\n%s", strings.Join(srv.Printed, "\n"))
	}
	tokenFile := filepath.Join(dir, ".strata", "worker-token")
	workers := map[string]*exec.Cmd{}
	for _, name := range []string{"w1", "w2", "w3"} {
		workers[name] = startWorker(t, d.Bin, natsURL, tokenFile, name)
	}
	waitWorkers(t, d.Bin, dir, 3)

	// A worker without the token is refused by the coordinator's server.
	out, code := strataproc.Run(t, d.Bin, "worker", "--nats", natsURL, "--token", "not-the-token", "--slots", "1")
	if code == 0 || !strings.Contains(strings.ToLower(out), "authorization") {
		t.Fatalf("worker with a wrong token: exit %d\n%s", code, out)
	}

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 3 })
	if err := workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := workers["w2"].Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("backfill ended %s (%+v)", st.State, st.Progress)
	_ = workers["w2"].Process.Signal(syscall.SIGCONT)
	time.Sleep(3 * time.Second) // its stale results arrive, and must change nothing

	ran := workersOfRuns(t, srv, launched.ID)
	t.Logf("Go block runs by worker: %v", ran)
	if len(ran) < 2 || ran[""] > 0 {
		t.Errorf("Go block runs by worker %v: want each attributed to a worker, more than one worker used", ran)
	}
	for _, w := range workers {
		_ = w.Process.Signal(syscall.SIGTERM)
	}
	srv.Stop(t)

	d.reportEnd(t, tr, dir, launched.ID)
}

// An extra "env:KEY=VALUE" sets the worker's environment instead of a flag.
func startWorker(t *testing.T, bin, natsURL, tokenFile, name string, extra ...string) *exec.Cmd {
	t.Helper()
	var flags, env []string
	for _, x := range extra {
		if kv, ok := strings.CutPrefix(x, "env:"); ok {
			env = append(env, kv)
		} else {
			flags = append(flags, x)
		}
	}
	cmd := exec.Command(bin, append([]string{"worker", "--nats", natsURL, "--token-file", tokenFile, "--slots", "2", "--name", name}, flags...)...)
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
	// A worker knows no project secret: the lake's password and the
	// bucket's key, when a task needs them, come from the coordinator
	// sealed.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "STRATA_FAULTS_LAKE_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Logf("worker %s:\n%s", name, log)
	})
	return cmd
}

// waitWorkers waits until `strata workers` lists n live workers (a stale
// one, whose heartbeats lapsed, does not count).
func waitWorkers(t *testing.T, bin, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _ := exec.Command(bin, "workers", dir).CombinedOutput()
		if strings.Count(string(out), " live ") >= n {
			t.Logf("strata workers:\n%s", out)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("strata workers did not list %d workers:\n%s", n, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// workersOfRuns counts a backfill's Go block runs per worker, as the runs
// API reports them.
func workersOfRuns(t *testing.T, srv *strataproc.Server, id string) map[string]int {
	t.Helper()
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+id+"/partitions?limit=100", "", &parts)
	out := map[string]int{}
	for _, p := range parts.Partitions {
		var run struct {
			Blocks []struct {
				Block  string `json:"block"`
				Worker string `json:"worker"`
			} `json:"blocks"`
		}
		srv.Call(t, http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "", &run)
		for _, b := range run.Blocks {
			if b.Block == "daily_customer_metrics" || b.Block == "weekly_customer_rollup" {
				continue // SQL blocks run in the coordinator's DuckDB
			}
			out[b.Worker]++
		}
	}
	return out
}

// A coordinator with workers stops mid-backfill, cleanly (SIGTERM) or by
// kill -9 while workers hold its tasks, and starts again on the same
// address: the workers reconnect by themselves with the token they have,
// the backfill resumes and ends as the suite's invariants require, and
// nothing that had succeeded runs again.
func TestScaleOutCoordinatorRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers")
	}
	d := NewDriver(t)
	for _, kill := range []bool{false, true} {
		name := "SIGTERM"
		if kill {
			name = "SIGKILL"
		}
		t.Run(name, func(t *testing.T) { coordinatorRestart(t, d, kill) })
	}
}

func coordinatorRestart(t *testing.T, d *Driver, kill bool) {
	tr := Trial{Mode: "server", Publish: "partition", Concurrency: 4}
	tr.From, tr.To = weekRange(2)
	dir := filepath.Join(t.TempDir(), "restart")
	if out, code := strataproc.Run(t, d.Bin, "init", dir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	addr := freeAddr(t)
	flags := []string{"--listen-workers", addr, "--no-local", "--ack-wait", "2s"}
	srv := strataproc.Start(t, d.Bin, dir, token, flags...)
	tokenFile := filepath.Join(dir, ".strata", "worker-token")
	for _, name := range []string{"w1", "w2"} {
		startWorker(t, d.Bin, "nats://"+addr, tokenFile, name)
	}
	waitWorkers(t, d.Bin, dir, 2)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", tr.specJSON(), &launched)
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 3 })
	if kill {
		srv.Kill()
	} else {
		srv.Stop(t)
	}

	srv = strataproc.Start(t, d.Bin, dir, token, flags...)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	t.Logf("after the restart: %s %+v", st.State, st.Progress)
	srv.Stop(t)

	d.reportEnd(t, tr, dir, launched.ID)
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
