package server

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// A PUT of the pipeline mid-backfill does not reach the running backfill;
// newer work published meanwhile is a conflict the API lists and resolves.
func TestBackfillVersionAndConflictsOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spec := map[string]any{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06", "concurrency": 1}
	var first engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills", spec, http.StatusCreated, &first)
	if done, err := e.eng.Wait(context.Background(), first.ID); err != nil || done.State != engine.StateSucceeded {
		t.Fatalf("first pass: %v %+v", err, done)
	}
	spec["reprocess"] = "all"
	var st engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills", spec, http.StatusCreated, &st)
	if err := e.eng.Pause(context.Background(), st.ID); err != nil {
		t.Fatal(err)
	}
	// The editor saves the pipeline: margin 0.32 -> 0.5.
	raw, err := os.ReadFile(filepath.Join(e.dir, "pipelines/clv.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	e.call(http.MethodPut, "/api/v1/pipelines/clv", strings.Replace(string(raw), `margin: "0.32"`, `margin: "0.5"`, 1), http.StatusOK, nil)
	if _, err := e.eng.Run(context.Background(), "clv", "2024-03-06", engine.RunOptions{}); err != nil {
		t.Fatal(err) // newer work on the last day
	}
	var mid engine.BackfillStatus
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID, nil, http.StatusOK, &mid)
	if !mid.FilesChanged || mid.Snapshot != st.Snapshot {
		t.Fatalf("mid-backfill status: version %s current %s changed %v", mid.Snapshot, mid.CurrentSnapshot, mid.FilesChanged)
	}
	if _, err := e.eng.Resume(context.Background(), st.ID); err != nil {
		t.Fatal(err)
	}
	done, _ := e.eng.Wait(context.Background(), st.ID)
	if done.State != engine.StateNeedsAttention {
		t.Fatalf("backfill: %s %q", done.State, done.Message)
	}
	// Every version the backfill wrote was computed by its own version.
	var n int
	if err := e.wh.DB().QueryRow(`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?) AND snapshot <> ?`, st.ID+":", st.Snapshot).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d versions of the backfill ran other code (%v)", n, err)
	}
	var cs struct {
		Conflicts []engine.BackfillConflict `json:"conflicts"`
	}
	e.call(http.MethodGet, "/api/v1/backfills/"+st.ID+"/conflicts", nil, http.StatusOK, &cs)
	if len(cs.Conflicts) == 0 || cs.Conflicts[0].Current == 0 {
		t.Fatalf("conflicts: %+v", cs.Conflicts)
	}
	var after engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/keep-newer", nil, http.StatusOK, &after)
	if after.State != engine.StateSucceeded {
		t.Fatalf("after keep-newer: %s %q", after.State, after.Message)
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/promote-anyway", nil, http.StatusConflict, nil)
	var rp engine.RetryPlan
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/retry?dry_run=true&use_current_code=true", nil, http.StatusOK, &rp)
	if !rp.CodeChange || rp.Was != st.Snapshot {
		t.Fatalf("retry plan: %+v", rp)
	}
}
