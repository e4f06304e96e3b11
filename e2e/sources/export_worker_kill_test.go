package sources

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestWorkerKilledMidExport: the Export block runs on a real `strata
// worker` (the coordinator runs nothing itself, --no-local; two workers, a
// 2 s lease). For the held partition the worker is killed with SIGKILL
// after the export's side effect (its Parquet written through
// ctx.ExportParquet) and before the export ledger records it complete.
// The task's lease runs out, the other worker takes it and the export runs
// again under the same key, replacing its file; the exports completed
// before the kill never run again, and the lake holds each partition's rows
// exactly once.
func TestWorkerKilledMidExport(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	out := t.TempDir()
	if o, code := strataproc.Run(t, bin, "init", dir); code != 0 {
		t.Fatal(o)
	}
	// The held export says which process runs its kernel: the worker.
	lake := strings.Replace(exportKillLake, `os.WriteFile(filepath.Join(out, "written"), nil, 0o644)`,
		`os.WriteFile(filepath.Join(out, "written"), []byte(fmt.Sprint(os.Getppid())), 0o644)`, 1)
	writeExtProject(t, dir, map[string]string{
		"pipelines/ex.yaml":     fmt.Sprintf(exportKillPipeline, out),
		"blocks/sales/sales.go": exportKillSales,
		"blocks/lake/lake.go":   lake,
	})
	srv := strataproc.Start(t, bin, dir, token, "--listen-workers", "127.0.0.1:0", "--no-local", "--ack-wait", "2s")
	natsURL := regexp.MustCompile(`nats://127\.0\.0\.1:\d+`).FindString(strings.Join(srv.Printed, "\n"))
	if natsURL == "" {
		t.Fatalf("strata start --listen-workers did not say where workers connect:\n%s", strings.Join(srv.Printed, "\n"))
	}
	workers := map[int]*exec.Cmd{}
	for _, name := range []string{"w1", "w2"} {
		w := exec.Command(bin, "worker", "--nats", natsURL, "--token-file", filepath.Join(dir, ".strata", "worker-token"),
			"--slots", "1", "--name", name, "--builds", t.TempDir())
		log := &strings.Builder{}
		w.Stdout, w.Stderr = log, log
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Process.Kill(); _ = w.Wait(); t.Logf("worker %s:\n%s", name, log) })
		workers[w.Process.Pid] = w
	}

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline":"ex","from":"2024-01-01","to":"2024-01-05","publish":"partition","concurrency":1}`, &launched)
	written := filepath.Join(out, "written")
	deadline := time.Now().Add(3 * time.Minute)
	var pid int
	for {
		if b, err := os.ReadFile(written); err == nil && len(b) > 0 {
			pid, _ = strconv.Atoi(string(b))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the held export never wrote its file; server:\n%s", srv.Stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w := workers[pid]
	if w == nil {
		t.Fatalf("the held export ran in a kernel of process %d, not a worker's", pid)
	}
	// What had completed: with one partition at a time, those that
	// succeeded before the held one.
	var parts struct {
		Partitions []struct {
			Key   string `json:"key"`
			State string `json:"state"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+launched.ID+"/partitions?limit=100", "", &parts)
	done := map[string]bool{}
	for _, p := range parts.Partitions {
		done[p.Key] = p.State == "succeeded"
	}
	if err := w.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = w.Wait()
	if done["2024-01-03"] {
		t.Fatal("the held export's partition succeeded before it returned")
	}
	if err := os.Remove(written); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	if st.State != "succeeded" {
		t.Fatalf("after the worker's kill: %s %q %+v\nserver:\n%s", st.State, st.Message, st.Progress, srv.Stderr)
	}
	if b, err := os.ReadFile(written); err != nil || string(b) == strconv.Itoa(pid) {
		t.Fatalf("the held export did not run again on the other worker (written: %q, %v)", b, err)
	}
	for _, w := range workers {
		_ = w.Process.Signal(syscall.SIGTERM)
	}
	srv.Stop(t)
	assertExportedOnce(t, dir, out, done)
}
