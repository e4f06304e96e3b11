package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/replay"
)

// A replay started through the API runs in the background; GET
// /replays/:id reads it until done, with the report per partition. Bad
// options are refused at once (400), an unknown replay is a 404.
func TestReplayRoutes(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"2024-03-09", "2024-03-10"} {
		var res engine.RunResult
		e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": p, "engine": "interp"}, http.StatusOK, &res)
		if res.State != engine.StateSucceeded {
			t.Fatalf("run %s: %s %s", p, res.State, res.Error)
		}
	}
	var job replay.Job
	e.call(http.MethodPost, "/api/v1/pipelines/clv/replays", map[string]any{"last": 30, "engine": "interp", "expect_unchanged": []string{"clv"}}, http.StatusAccepted, &job)
	if job.ID == "" || job.State != replay.JobRunning {
		t.Fatalf("job %+v", job)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for job.State == replay.JobRunning && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		e.call(http.MethodGet, "/api/v1/replays/"+job.ID, nil, http.StatusOK, &job)
	}
	if job.State != replay.JobDone || job.Report == nil {
		t.Fatalf("job %+v", job)
	}
	// Two days and their week.
	if len(job.Report.Partitions) != 3 || job.Report.Counts.Unchanged != 3 || !job.Report.Passed || job.Done != 3 || job.Total != 3 {
		t.Fatalf("report %+v", job.Report)
	}
	for _, bad := range []map[string]any{
		{"last": 3, "expect_unchanged": []string{"nope"}},
		{"last": 3, "from": "2024-03-01"},
		{"last": -1},
		{"engine": "jit"},
		{"rows": -3},
	} {
		resp, data := e.request(http.MethodPost, "/api/v1/pipelines/clv/replays", bad)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%v: status %d: %s", bad, resp.StatusCode, data)
		}
	}
	resp, data := e.request(http.MethodGet, "/api/v1/replays/replay-nope", nil)
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(data), "replay-nope") {
		t.Fatalf("unknown replay: %d %s", resp.StatusCode, data)
	}
	resp, _ = e.request(http.MethodPost, "/api/v1/pipelines/nope/replays", map[string]any{"last": 3})
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown pipeline: %d", resp.StatusCode)
	}
}
