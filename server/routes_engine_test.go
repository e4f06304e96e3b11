package server

import (
	"net/http"
	"os/exec"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// The HTTP API runs and backfills compiled by default when a toolchain is
// found, interpreted on request, records which, and refuses an unknown engine.
func TestRunEngineOverHTTP(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	e := newCompiledEnv(t)
	var res engine.RunResult
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-10"}, http.StatusOK, &res)
	if res.State != engine.StateSucceeded || res.Engine != engine.EngineCompiled {
		t.Fatalf("default run: state %s engine %q (%s)", res.State, res.Engine, res.EngineNote)
	}
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs?wait=true", map[string]string{"partition": "2024-03-11", "engine": "interp"}, http.StatusOK, &res)
	if res.State != engine.StateSucceeded || res.Engine != engine.EngineInterp {
		t.Fatalf("interp run: state %s engine %q", res.State, res.Engine)
	}
	e.call(http.MethodPost, "/api/v1/pipelines/clv/runs", map[string]string{"engine": "jit"}, http.StatusBadRequest, nil)
	var runs struct {
		Runs []engine.RunSummary `json:"runs"`
	}
	e.call(http.MethodGet, "/api/v1/runs?pipeline=clv", nil, http.StatusOK, &runs)
	got := map[string]string{}
	for _, r := range runs.Runs {
		got[r.Partition] = r.Engine
	}
	if got["2024-03-10"] != "compiled" || got["2024-03-11"] != "interp" {
		t.Fatalf("run history engines: %v", got)
	}
	e.call(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-01", "to": "2024-03-02", "engine": "jit"}, http.StatusBadRequest, nil)
}
