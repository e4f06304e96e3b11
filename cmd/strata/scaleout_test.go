package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/warehouse"
)

// Three real `strata worker` processes run a demo backfill for a
// coordinator that runs nothing itself (--no-local). Mid-way one worker is
// killed with SIGKILL and another is frozen with SIGSTOP (it holds its
// tasks, or pull requests, and answers nothing). Their tasks come back when
// the 2 s lease runs out and the third worker finishes the backfill. Then:
// the backfill succeeded, every partition has exactly one version (nothing
// published twice) and it is current, and the data equals a single-machine
// run of the same range.
func TestScaleOutSurvivesKilledAndFrozenWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs four processes")
	}
	bin := builtBinary(t)
	dir := t.TempDir()
	const from, to = "2024-01-01", "2024-01-21"

	// The reference: the same backfill on one machine, no NATS.
	ref := filepath.Join(dir, "ref")
	if out, err := exec.Command(bin, "init", ref, "--demo").CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "backfill", ref, "clv", "--from", from, "--to", to).CombinedOutput(); err != nil {
		t.Fatalf("reference backfill: %v\n%s", err, out)
	}

	demo := filepath.Join(dir, "demo")
	const token = "0123456789abcdef-scaleout"
	srv, natsURL := startCoordinator(t, bin, demo, token, "--listen-workers", "127.0.0.1:0", "--no-local", "--ack-wait", "2s")
	workers := map[string]*exec.Cmd{}
	for _, name := range []string{"w1", "w2", "w3"} {
		workers[name] = startWorker(t, bin, natsURL, filepath.Join(demo, ".strata", "worker-token"), name)
	}
	waitWorkers(t, bin, demo, 3)

	// A worker without the token is refused by the coordinator's server.
	out, err := exec.Command(bin, "worker", "--nats", natsURL, "--token", "not-the-token", "--slots", "1").CombinedOutput()
	if err == nil || !strings.Contains(strings.ToLower(string(out)), "authorization") {
		t.Fatalf("worker with a wrong token: %v\n%s", err, out)
	}

	var launched struct {
		ID string `json:"id"`
	}
	srv.call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "`+from+`", "to": "`+to+`", "concurrency": 6}`, &launched)
	srv.waitFor(t, launched.ID, func(p progress) bool { return p.Succeeded >= 3 })
	if err := workers["w1"].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := workers["w2"].Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	st := srv.waitFor(t, launched.ID, func(p progress) bool { return p.State != "running" })
	if st.State != "succeeded" || st.Progress.Failed != 0 {
		t.Fatalf("backfill after a killed and a frozen worker: %+v", st)
	}
	// The frozen worker wakes up and may publish results for tasks already
	// rerun elsewhere: they must change nothing.
	_ = workers["w2"].Process.Signal(syscall.SIGCONT)
	time.Sleep(3 * time.Second)

	// Which workers ran what is recorded on each block run.
	ran := workersOfRuns(t, srv, launched.ID)
	t.Logf("block runs by worker: %v", ran)
	if len(ran) < 2 || ran[""] > 0 {
		t.Fatalf("block runs by worker %v: want every Go block run attributed, on more than one worker", ran)
	}
	for _, w := range workers {
		_ = w.Process.Signal(syscall.SIGTERM)
	}
	srv.stop(t)

	got, want := warehouseContents(t, demo), warehouseContents(t, ref)
	if len(got) != len(want) || len(want) < 5 {
		t.Fatalf("products: got %d, reference %d", len(got), len(want))
	}
	for product, rows := range want {
		if got[product] != rows {
			t.Fatalf("product %s differs from the single-machine run:\n got %.400s\nwant %.400s", product, got[product], rows)
		}
	}
	checkPublishedOnce(t, demo)
}

// startCoordinator runs `strata start` with worker flags and returns it
// with the NATS URL it prints for workers.
func startCoordinator(t *testing.T, bin, dir, token string, extra ...string) (*startedServer, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"start", dir, "--addr", "127.0.0.1:0", "--token", token}, extra...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	serving := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	natsAt := regexp.MustCompile(`nats://127\.0\.0\.1:\d+`)
	var natsURL string
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if u := natsAt.FindString(lines.Text()); u != "" {
			natsURL = u
		}
		if u := serving.FindString(lines.Text()); u != "" {
			go func() {
				for lines.Scan() {
				}
			}()
			if natsURL == "" {
				t.Fatal("strata start --listen-workers printed no NATS URL for workers")
			}
			return &startedServer{cmd: cmd, base: strings.TrimSuffix(u, "/") + "/api/v1", token: token, stderr: stderr}, natsURL
		}
	}
	t.Fatalf("strata start printed no URL:\n%s", stderr)
	return nil, ""
}

func startWorker(t *testing.T, bin, natsURL, tokenFile, name string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "worker", "--nats", natsURL, "--token-file", tokenFile, "--slots", "2", "--name", name)
	log := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = log, log
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

// waitWorkers waits until `strata workers` lists n workers.
func waitWorkers(t *testing.T, bin, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, _ := exec.Command(bin, "workers", dir).CombinedOutput()
		if strings.Count(string(out), " ago") >= n {
			t.Logf("strata workers:\n%s", out)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("strata workers did not list %d workers:\n%s", n, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// workersOfRuns counts the Go block runs of a backfill per worker.
func workersOfRuns(t *testing.T, srv *startedServer, id string) map[string]int {
	t.Helper()
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	srv.call(t, http.MethodGet, "/backfills/"+id+"/partitions?limit=100", "", &parts)
	out := map[string]int{}
	for _, p := range parts.Partitions {
		var run struct {
			Blocks []struct {
				Block  string `json:"block"`
				Worker string `json:"worker"`
			} `json:"blocks"`
		}
		srv.call(t, http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "", &run)
		for _, b := range run.Blocks {
			if b.Block == "daily_customer_metrics" || b.Block == "weekly_customer_rollup" {
				continue // SQL blocks run in the coordinator's DuckDB
			}
			out[b.Worker]++
		}
	}
	return out
}

// warehouseContents renders every product's current rows, sorted, per product.
func warehouseContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, warehousePath(dir), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	ps, err := wh.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range ps {
		tab, err := wh.Read(ctx, p.Name, warehouse.Selection{}, -1)
		if err != nil {
			t.Fatal(err)
		}
		rows := make([]string, tab.Len())
		for i := range rows {
			rows[i] = fmt.Sprint(tab.Row(i))
		}
		sort.Strings(rows)
		out[p.Name] = fmt.Sprint(tab.Schema()) + "\n" + strings.Join(rows, "\n")
	}
	return out
}

// checkPublishedOnce: one version per partition, written by one run, current.
func checkPublishedOnce(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	wh, err := warehouse.Open(ctx, warehousePath(dir), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	var twice, notCurrent, parts int
	err = wh.DB().QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM (SELECT product, partition FROM _strata.versions GROUP BY ALL HAVING count(*) > 1)),
		(SELECT count(*) FROM (SELECT product, partition FROM _strata.versions GROUP BY ALL HAVING count(*) FILTER (WHERE is_current) <> 1)),
		(SELECT count(*) FROM _strata.versions)`).Scan(&twice, &notCurrent, &parts)
	if err != nil {
		t.Fatal(err)
	}
	if twice != 0 || notCurrent != 0 || parts == 0 {
		t.Fatalf("%d partitions published more than once, %d without exactly one current version (of %d versions)", twice, notCurrent, parts)
	}
}
