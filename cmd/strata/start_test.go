package main

import (
	"net/http"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A SIGTERM to `strata start` in the middle of a backfill checkpoints it;
// the next `strata start` of the project resumes it and finishes it,
// without running again the partitions that had succeeded. This is the
// real binary, the real demo project and real HTTP.
func TestStartStopsGracefullyAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := strataproc.Binary(t)
	demo := filepath.Join(dir, "demo")
	const token = "0123456789abcdef-test"

	srv := strataproc.Start(t, bin, demo, token)
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-21", "concurrency": 2, "rate_per_min": 240}`, &launched)
	if launched.ID == "" {
		t.Fatal("no backfill id")
	}
	srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.Succeeded >= 2 })
	before := succeededRuns(t, srv, launched.ID)
	srv.Stop(t)

	srv = strataproc.Start(t, bin, demo, token)
	st := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" })
	if st.State != "succeeded" || st.Progress.Failed != 0 {
		t.Fatalf("after the restart: %+v", st)
	}
	// Each partition succeeded exactly once across both processes.
	var parts struct {
		Partitions []struct {
			Key   string `json:"key"`
			State string `json:"state"`
		} `json:"partitions"`
		Total int `json:"total"`
	}
	srv.Call(t, http.MethodGet, "/backfills/"+launched.ID+"/partitions?limit=100", "", &parts)
	if parts.Total != 21+3 { // 21 days and weeks 2024-W01..W03
		t.Fatalf("%d partitions, want 24: %+v", parts.Total, parts.Partitions)
	}
	for _, p := range parts.Partitions {
		if p.State != "succeeded" {
			t.Fatalf("partition %s is %s", p.Key, p.State)
		}
	}
	// What had succeeded before the stop was not run again after it.
	after := succeededRuns(t, srv, launched.ID)
	for run, started := range before {
		if after[run] != started {
			t.Fatalf("run %s started at %s before the stop and at %s after it", run, started, after[run])
		}
	}
	srv.Stop(t)
}

// succeededRuns maps each succeeded partition run of a backfill to when its
// first block started.
func succeededRuns(t *testing.T, s *strataproc.Server, id string) map[string]string {
	t.Helper()
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	s.Call(t, http.MethodGet, "/backfills/"+id+"/partitions?state=succeeded&limit=100", "", &parts)
	out := map[string]string{}
	for _, p := range parts.Partitions {
		var run struct {
			Blocks []struct {
				StartedAt string `json:"started_at"`
			} `json:"blocks"`
		}
		s.Call(t, http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "", &run)
		if len(run.Blocks) == 0 || run.Blocks[0].StartedAt == "" {
			t.Fatalf("run %s has no started block run: %+v", p.RunID, run)
		}
		out[p.RunID] = run.Blocks[0].StartedAt
	}
	if len(out) == 0 {
		t.Fatal("no succeeded partitions")
	}
	return out
}
