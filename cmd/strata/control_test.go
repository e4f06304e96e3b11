package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
