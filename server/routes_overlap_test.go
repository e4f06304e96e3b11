package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// A second launch over partitions a running backfill covers is a 409 that
// names it (it ran and ended "needs attention" with a conflict for each).
func TestOverlappingLaunchIsAConflict(t *testing.T) {
	e := newEnv(t)
	var st engine.BackfillStatus
	e.call(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-01", "to": "2024-03-31", "rate_per_min": 30, "concurrency": 1}, http.StatusCreated, &st)
	resp, data := e.request(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-10", "to": "2024-03-12"})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(apiError(t, data).Message, st.ID) {
		t.Fatalf("overlapping launch: %d %s", resp.StatusCode, data)
	}
	e.call(http.MethodPost, "/api/v1/backfills/"+st.ID+"/cancel", nil, http.StatusOK, nil)
}
