package main

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// With `strata start` holding the project, `strata backfill cancel|pause`
// reaches the backfill it runs and says so once it is done; for a backfill
// it is not running it says "not running", exits 1 and leaves nothing that
// a later retry would trip over.
func TestBackfillControlReachesTheServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	srv := strataproc.Start(t, bin, demo, "0123456789abcdef-test")
	cli := func(args ...string) (string, int) { t.Helper(); return strataproc.Run(t, bin, args...) }
	var a struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-14", "rate_per_min": 120}`, &a)
	srv.WaitFor(t, a.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 1 })
	out, code := cli("backfill", "pause", demo, a.ID)
	if code != 0 || !strings.Contains(out, "paused") {
		t.Fatalf("pause: exit %d\n%s", code, out)
	}
	srv.WaitFor(t, a.ID, func(p strataproc.Progress) bool { return p.State == "paused" })
	if out, code := cli("backfill", "cancel", demo, a.ID); code != 0 || !strings.Contains(out, "cancelled") {
		t.Fatalf("cancel: exit %d\n%s", code, out)
	}
	srv.WaitFor(t, a.ID, func(p strataproc.Progress) bool { return p.State == "cancelled" })

	// Not running in the server now: said, exit 1, nothing left behind.
	for _, action := range []string{"pause", "cancel"} {
		out, code := cli("backfill", action, demo, a.ID)
		if code != 1 || !strings.Contains(out, "not running") || !strings.Contains(out, "nothing to "+action) {
			t.Fatalf("%s of a backfill the server is not running: exit %d\n%s", action, code, out)
		}
	}
	if left, _ := os.ReadDir(filepath.Join(demo, ".strata", "control", a.ID)); len(left) != 0 {
		t.Fatalf("control requests left behind: %v", left)
	}
	// So the retry neither hangs paused nor is cancelled.
	srv.Call(t, http.MethodPost, "/backfills/"+a.ID+"/retry", "", &a)
	st := srv.WaitFor(t, a.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	if st.State != "succeeded" {
		t.Fatalf("retry after refused requests: %+v", st)
	}
	srv.Stop(t)
}

// A running `strata backfill` has no API and holds the project, so status
// and list used to fail with "in use". Now the run answers them itself;
// a backfill that process is not running is refused with what to do.
func TestBackfillStatusBesideARunningCLIBackfill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	demo := filepath.Join(t.TempDir(), "demo")
	if out, code := strataproc.Run(t, bin, "init", demo, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	// Paced, so it is still running when asked (and cancelled at the end).
	bf := exec.Command(bin, "backfill", demo, "clv", "--from", "2024-01-01", "--to", "2024-03-31", "--rate", "60/m")
	if err := bf.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bf.Process.Kill(); _ = bf.Wait() })
	var id string
	for deadline := time.Now().Add(time.Minute); id == ""; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the backfill never advertised its run instance")
		}
		if ids, _ := filepath.Glob(filepath.Join(demo, ".strata", "control", "*", "instance.json")); len(ids) == 1 {
			id = filepath.Base(filepath.Dir(ids[0]))
		}
	}
	out, code := strataproc.Run(t, bin, "backfill", "status", demo, id, "--format", "json")
	var doc struct {
		Backfill struct {
			ID, State string
			Total     int
		}
		Counts map[string]int
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.Backfill.ID != id || doc.Backfill.State != "running" || doc.Backfill.Total == 0 {
		t.Fatalf("status beside the running backfill: exit %d\n%s", code, out)
	}
	out, code = strataproc.Run(t, bin, "backfill", "status", demo, id, "--partitions")
	if code != 0 || !strings.Contains(out, "read from pid") || !strings.Contains(out, "2024-01-01") {
		t.Fatalf("text status with partitions: exit %d\n%s", code, out)
	}
	if out, code = strataproc.Run(t, bin, "backfill", "list", demo); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "running") {
		t.Fatalf("list beside the running backfill: exit %d\n%s", code, out)
	}
	if out, code = strataproc.Run(t, bin, "backfill", "status", demo, "bf_nosuch"); code != 1 || !strings.Contains(out, "not running in pid") {
		t.Fatalf("status of a backfill the holder is not running: exit %d\n%s", code, out)
	}
	if out, code = strataproc.Run(t, bin, "backfill", "cancel", demo, id); code != 0 {
		t.Fatalf("cancel: exit %d\n%s", code, out)
	}
	if left, _ := filepath.Glob(filepath.Join(demo, ".strata", "control", id, "*.*.json")); len(left) != 0 {
		t.Fatalf("requests or answers left behind: %v", left)
	}
}
