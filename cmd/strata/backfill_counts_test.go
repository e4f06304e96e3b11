package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/stratahq/strata/e2e/strataproc"
)

// gatedBlock waits while the file hold-KEY exists in dir and panics when
// fail-KEY does: the test steers each partition with files, not code, so
// the pipeline version never changes.
func gatedBlock(dir string) string {
	return fmt.Sprintf(`package b

import (
	"os"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

const dir = %q

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	k := ctx.Partition.Key
	for exists(dir + "/hold-" + k) {
		time.Sleep(20 * time.Millisecond)
	}
	if exists(dir + "/fail-" + k) {
		panic("boom " + k)
	}
	out := sdk.NewTable(sdk.String("day"))
	out.Append(k)
	return out, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
`, dir)
}

// counts is a backfill's counts by state.
type counts map[string]int

func (c counts) String() string {
	return fmt.Sprintf("succeeded %d, failed %d, running %d, cancelled %d, skipped %d", c["succeeded"], c["failed"], c["running"], c["cancelled"], c["skipped"])
}

func (c counts) same(o counts) bool {
	for _, s := range []string{"succeeded", "failed", "running", "cancelled", "skipped", "conflict"} {
		if c[s] != o[s] {
			return false
		}
	}
	return true
}

// apiCounts reads a backfill's counts from GET /backfills/:id (what the
// header and the CLI show) and from its partitions (what the grid shows).
func apiCounts(t *testing.T, srv *strataproc.Server, id string) (header, grid counts) {
	t.Helper()
	var st struct {
		Progress struct {
			Succeeded, Failed, Running, Cancelled, Skipped, Conflicts int
		} `json:"progress"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+id, "", &st)
	p := st.Progress
	header = counts{"succeeded": p.Succeeded, "failed": p.Failed, "running": p.Running, "cancelled": p.Cancelled, "skipped": p.Skipped, "conflict": p.Conflicts}
	var ps struct {
		Partitions []struct {
			State string `json:"state"`
		} `json:"partitions"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+id+"/partitions?limit=1000", "", &ps)
	grid = counts{}
	for _, p := range ps.Partitions {
		grid[p.State]++
	}
	return header, grid
}

// cliCounts reads the counts `strata backfill status --format json` prints.
func cliCounts(t *testing.T, bin, dir, id string) counts {
	t.Helper()
	out, code := strataproc.Run(t, bin, "backfill", "status", dir, id, "--format", "json")
	if code != 0 {
		t.Fatalf("backfill status: %s", out)
	}
	var doc struct {
		Counts counts `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &doc); err != nil {
		t.Fatalf("backfill status: %v\n%s", err, out)
	}
	return doc.Counts
}

// waitCounts polls until the API's counts satisfy ok.
func waitCounts(t *testing.T, srv *strataproc.Server, id string, ok func(header, grid counts) bool) (counts, counts) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		h, g := apiCounts(t, srv, id)
		if ok(h, g) {
			return h, g
		}
		if time.Now().After(deadline) {
			t.Fatalf("backfill %s: header %v, grid %v after 2 minutes", id, h, g)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBackfillCountsAndFailureHistory drives a backfill through failures, a
// kill -9 with a partition running, the restart that resumes it, and a
// retry, through the real binary. At each step the counts the API's header
// answers, the grid's partitions, the CLI's status and (once it stopped)
// the run log in the warehouse agree, and running never exceeds the
// concurrency (1). Before, a restart left the killed partition "running"
// beside the one running again ("running 2" at concurrency 1), and a pass's
// own counters said "0 failed" where the grid had the earlier failures.
// Every attempt at a partition stays a run of its own: the failed runs a
// retry replaced vanished from GET /runs?state=failed, as they shared its id.
func TestBackfillCountsAndFailureHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	gates := t.TempDir()
	dir := truthProject(t, bin, gatedBlock(gates))
	if err := os.WriteFile(filepath.Join(dir, "pipelines/p.yaml"), []byte("partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nconcurrency: 1\ntimeout: 5m\nblocks:\n  - id: b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gate := func(name string, on bool) {
		t.Helper()
		p := filepath.Join(gates, name)
		if on {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	gate("fail-2024-01-01", true)
	gate("fail-2024-01-02", true)
	gate("hold-2024-01-03", true)
	const token = "counts-token-0123456789"
	srv := strataproc.Start(t, bin, dir, token)
	var st strataproc.Backfill
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "p", "from": "2024-01-01", "to": "2024-01-04"}`, &st)
	id := st.ID

	// During: two failed, the third held running, the fourth queued.
	// Both reads at a moment nothing moves: 03 is held running.
	waitCounts(t, srv, id, func(h, g counts) bool { return g["running"] == 1 && g["failed"] == 2 && h["running"] == 1 && h["failed"] == 2 })
	h, g := apiCounts(t, srv, id)
	if !h.same(g) {
		t.Fatalf("while running: the header says %v, the grid %v", h, g)
	}
	if c := cliCounts(t, bin, dir, id); !c.same(h) {
		t.Fatalf("while running: the CLI says %v, the API %v", c, h)
	}

	// kill -9 with 2024-01-03 running; on the restart the backfill resumes,
	// reruns the failed 2024-01-01 first (held now) and must not count the
	// killed 2024-01-03 as running beside it.
	srv.Kill()
	gate("hold-2024-01-01", true)
	srv = strataproc.Start(t, bin, dir, token)
	// Once 01 runs again in both reads, nothing moves (it is held).
	waitCounts(t, srv, id, func(h, g counts) bool { return h["running"] >= 1 && g["running"] >= 1 })
	h, g = apiCounts(t, srv, id)
	for i := 0; i < 5; i++ { // several reads while it runs
		if h["running"] > 1 || g["running"] > 1 || !h.same(g) {
			t.Fatalf("after a restart, at concurrency 1: the header says %v, the grid %v", h, g)
		}
		if c := cliCounts(t, bin, dir, id); !c.same(h) && c["running"] == h["running"] {
			t.Fatalf("after a restart: the CLI says %v, the API %v", c, h)
		}
		time.Sleep(50 * time.Millisecond)
		h, g = apiCounts(t, srv, id)
	}
	gate("hold-2024-01-01", false)
	gate("hold-2024-01-03", false)
	final := srv.WaitFor(t, id, func(p strataproc.Progress) bool { return p.State == "failed" })
	if final.Progress.Failed != 2 || final.Progress.Succeeded != 2 {
		t.Fatalf("after the restart the backfill ended %+v, want 2 failed (01, 02), 2 succeeded", final.Progress)
	}

	// A retry: 01 and 02 fail again. Every attempt stays in the history.
	srv.Call(t, http.MethodPost, "/backfills/"+id+"/retry", "", &st)
	srv.WaitFor(t, id, func(p strataproc.Progress) bool { return p.State == "failed" })
	type run struct {
		RunID     string `json:"run_id"`
		Partition string `json:"partition"`
		State     string `json:"state"`
		Attempt   int    `json:"attempt"`
	}
	var failed struct {
		Runs []run `json:"runs"`
	}
	srv.Call(t, http.MethodGet, "/runs?state=failed&backfill="+id, "", &failed)
	byKey := map[string]map[string]bool{}
	for _, r := range failed.Runs {
		if byKey[r.Partition] == nil {
			byKey[r.Partition] = map[string]bool{}
		}
		byKey[r.Partition][r.RunID] = true
	}
	// 01: at launch, on the resume after the restart, on the retry; 02: at
	// launch, on the resume, on the retry.
	if len(failed.Runs) != 6 || len(byKey["2024-01-01"]) != 3 || len(byKey["2024-01-02"]) != 3 {
		t.Fatalf("failed runs of the backfill: %+v, want three attempts each of 2024-01-01 and 2024-01-02, each its own run", failed.Runs)
	}
	var all struct {
		Runs []run `json:"runs"`
	}
	srv.Call(t, http.MethodGet, "/runs?backfill="+id, "", &all)
	for _, r := range all.Runs {
		if r.Partition == "2024-01-03" && (r.RunID != id+":2024-01-03" || r.State != "succeeded") {
			// The attempt the kill interrupted continued under its own id:
			// what it had published would have been found, not repeated.
			t.Fatalf("the interrupted partition's run: %+v, want %s:2024-01-03 succeeded (one attempt)", r, id)
		}
	}
	if len(all.Runs) != 8 {
		t.Fatalf("runs of the backfill: %d, want 8 (3+3 failed, 01-03 and 01-04 once each): %+v", len(all.Runs), all.Runs)
	}
	h, g = apiCounts(t, srv, id)
	srv.Stop(t)

	// After: the CLI reads the warehouse; the truth is the latest event of
	// each partition in the run log.
	c := cliCounts(t, bin, dir, id)
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT s, count(*) FROM (SELECT partition_key, arg_max(state, seq) AS s FROM _strata.run_events
		WHERE backfill_id = ? AND block_id = '' GROUP BY partition_key) GROUP BY s`, id)
	if err != nil {
		t.Fatal(err)
	}
	wh := counts{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatal(err)
		}
		wh[s] = n
	}
	rows.Close()
	if !c.same(wh) || !h.same(wh) || !g.same(wh) {
		t.Fatalf("after: the warehouse says %v, the CLI %v, the API's header %v, its grid %v", wh, c, h, g)
	}
}

// TestRetryKeepsEveryFailedAttempt: after a retry of a backfill whose
// partitions failed, GET /runs?state=failed still lists the first
// attempts' runs beside the retry's: each attempt is a run of its own,
// linked to its partition. Before, the retry reused the run id, and the
// failed runs vanished from the Runs page once it ran.
func TestRetryKeepsEveryFailedAttempt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	gates := t.TempDir()
	dir := truthProject(t, bin, gatedBlock(gates))
	for _, k := range []string{"2024-01-01", "2024-01-02"} {
		if err := os.WriteFile(filepath.Join(gates, "fail-"+k), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := strataproc.Start(t, bin, dir, "history-token-0123456789")
	var st strataproc.Backfill
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "p", "from": "2024-01-01", "to": "2024-01-03"}`, &st)
	srv.WaitFor(t, st.ID, func(p strataproc.Progress) bool { return p.State == "failed" })
	type run struct {
		RunID     string `json:"run_id"`
		Partition string `json:"partition"`
		Attempt   int    `json:"attempt"`
	}
	var failed struct {
		Runs []run `json:"runs"`
	}
	srv.Call(t, http.MethodGet, "/runs?state=failed", "", &failed)
	if len(failed.Runs) != 2 {
		t.Fatalf("failed runs after the launch: %+v, want 2", failed.Runs)
	}
	// The retry fails the same way (the files did not change).
	srv.Call(t, http.MethodPost, "/backfills/"+st.ID+"/retry", "", &st)
	srv.WaitFor(t, st.ID, func(p strataproc.Progress) bool { return p.State == "failed" })
	srv.Call(t, http.MethodGet, "/runs?state=failed", "", &failed)
	ids := map[string]run{}
	for _, r := range failed.Runs {
		ids[r.RunID] = r
	}
	for _, k := range []string{"2024-01-01", "2024-01-02"} {
		first, retry := st.ID+":"+k, st.ID+":"+k+"~2"
		if ids[first].Attempt != 1 || ids[retry].Attempt != 2 || ids[retry].Partition != k {
			t.Fatalf("failed runs after the retry: %+v, want %s (attempt 1) and %s (attempt 2) of partition %s", failed.Runs, first, retry, k)
		}
	}
	if len(failed.Runs) != 4 {
		t.Fatalf("failed runs after the retry: %+v, want 4", failed.Runs)
	}
	// Each attempt's own detail (logs) is still there.
	var detail struct {
		State  string `json:"state"`
		Blocks []struct {
			Error string `json:"error"`
		} `json:"blocks"`
	}
	srv.Call(t, http.MethodGet, "/runs/"+st.ID+":2024-01-01", "", &detail)
	if detail.State != "failed" || len(detail.Blocks) != 1 || !strings.Contains(detail.Blocks[0].Error, "boom 2024-01-01") {
		t.Fatalf("the first attempt's detail: %+v", detail)
	}
}
