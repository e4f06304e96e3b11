package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
)

// A run of a partition that has not started is refused at once (400, with
// the partition clock in the details), not accepted and failed later.
func TestRunOfFuturePartitionRefused(t *testing.T) {
	e := newEnv(t)
	resp, data := e.request(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2099-01-01"})
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d: %s", resp.StatusCode, data)
	}
	ae := apiError(t, data)
	d, _ := ae.Details.(map[string]any)
	if ae.Code != CodeBadRequest || !strings.Contains(ae.Message, "partition 2099-01-01 has not started yet (the current partition is ") || d["Latest"] == nil {
		t.Fatalf("error %+v", ae)
	}
	var runs struct {
		Runs []engine.RunSummary `json:"runs"`
	}
	e.call(http.MethodGet, "/api/v1/runs?partition=2099-01-01", nil, http.StatusOK, &runs)
	if len(runs.Runs) != 0 {
		t.Fatalf("a refused run was recorded: %+v", runs.Runs)
	}
}

// The runs list filters by origin and state and pages; a running run is
// cancelled through the API and an ended one answers 409.
func TestRunsListAndCancel(t *testing.T) {
	e := newEnv(t)
	var res engine.RunResult
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10", "origin": "editor"}, http.StatusOK, &res)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-11"}, http.StatusOK, &res)
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2024-03-11", "origin": "robot"}, http.StatusBadRequest, nil)
	type page struct {
		Runs []engine.RunSummary `json:"runs"`
		More bool                `json:"more"`
	}
	var p page
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv&origin=editor", nil, http.StatusOK, &p)
	if len(p.Runs) != 1 || p.Runs[0].Partition != "2024-03-10" || p.Runs[0].Launched != "editor" {
		t.Fatalf("editor runs %+v", p)
	}
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv&origin=api&state=succeeded", nil, http.StatusOK, &p)
	if len(p.Runs) != 1 || p.Runs[0].Partition != "2024-03-11" {
		t.Fatalf("api runs %+v", p)
	}
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv&limit=1", nil, http.StatusOK, &p)
	if len(p.Runs) != 1 || !p.More || p.Runs[0].Partition != "2024-03-11" {
		t.Fatalf("page 1 %+v", p)
	}
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv&limit=1&offset=1", nil, http.StatusOK, &p)
	if len(p.Runs) != 1 || p.More || p.Runs[0].Partition != "2024-03-10" {
		t.Fatalf("page 2 %+v", p)
	}
	e.call(http.MethodGet, "/api/v1/runs?state=bogus", nil, http.StatusBadRequest, nil)
	e.call(http.MethodPost, "/api/v1/runs/"+res.RunID+"/cancel", nil, http.StatusConflict, nil)
	e.call(http.MethodPost, "/api/v1/runs/run_nope/cancel", nil, http.StatusNotFound, nil)

	// A slow block, cancelled while it runs.
	e.call(http.MethodPut, "/api/v1/pipelines/clv/blocks/raw_orders", map[string]string{"source": sleepSource(60_000)}, http.StatusOK, nil)
	var started struct {
		RunID string `json:"run_id"`
	}
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"partition": "2024-03-12"}, http.StatusAccepted, &started)
	var d engine.RunDetail
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if r, _ := e.request(http.MethodGet, "/api/v1/runs/"+started.RunID, nil); r.StatusCode == http.StatusOK {
			e.call(http.MethodGet, "/api/v1/runs/"+started.RunID, nil, http.StatusOK, &d)
			if len(d.Blocks) > 0 && d.Blocks[0].State == engine.StateRunning {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("raw_orders did not start: %+v", d)
		}
	}
	e.call(http.MethodPost, "/api/v1/runs/"+started.RunID+"/cancel", nil, http.StatusAccepted, nil)
	for deadline := time.Now().Add(30 * time.Second); d.State != engine.StateCancelled; time.Sleep(20 * time.Millisecond) {
		e.call(http.MethodGet, "/api/v1/runs/"+started.RunID, nil, http.StatusOK, &d)
		if time.Now().After(deadline) {
			t.Fatalf("not cancelled: %+v", d)
		}
	}
	if !strings.Contains(d.Error, "cancelled by a user") {
		t.Fatalf("error %q", d.Error)
	}
}

// A chart's numbers come from the warehouse over the whole window, in the
// pipeline's zone; a bad column is the client's error.
func TestAggregateProductRoute(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"2024-03-10", "2024-03-11"} {
		e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": p}, http.StatusOK, nil)
	}
	var pv struct {
		Preview struct {
			RowCount int `json:"row_count"`
		} `json:"preview"`
	}
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/preview?last=2&limit=1", nil, http.StatusOK, &pv)
	var a struct {
		Zone    string `json:"zone"`
		Bucket  string `json:"bucket"`
		Rows    int    `json:"rows"`
		Buckets []struct {
			Label string `json:"label"`
			Rows  int    `json:"rows"`
		} `json:"buckets"`
		Describe string `json:"describe"`
	}
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/aggregate?last=2&x=ordered_at&y=amount&agg=sum&bucket=day", nil, http.StatusOK, &a)
	if a.Zone != "America/New_York" || a.Bucket != "day" || len(a.Buckets) != 2 || a.Buckets[0].Label != "2024-03-10" || a.Rows != pv.Preview.RowCount || a.Rows == 0 {
		t.Fatalf("aggregate %+v (preview rows %d)", a, pv.Preview.RowCount)
	}
	if !strings.HasPrefix(a.Describe, "sum of amount per day, 2 buckets over ") {
		t.Fatalf("describe %q", a.Describe)
	}
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/aggregate?last=2&x=channel&agg=count", nil, http.StatusBadRequest, nil)
	e.call(http.MethodGet, "/api/v1/products/clv__raw_orders/aggregate?kind=histogram&y=amount&bins=5", nil, http.StatusOK, &a)
	if len(a.Buckets) != 5 || a.Rows != pv.Preview.RowCount {
		t.Fatalf("histogram %+v", a)
	}
	e.call(http.MethodGet, "/api/v1/products/nope/aggregate?x=a", nil, http.StatusNotFound, nil)
}
