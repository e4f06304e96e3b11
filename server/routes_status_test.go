package server

import (
	"net/http"
	"strings"
	"testing"
)

// Each failure answers the status that says whose it is: a reversed window
// or an out-of-range concurrency is the client's (400, naming the field), a
// storage failure the server's (500).
func TestClientAndServerErrorsAreTold(t *testing.T) {
	e := newEnv(t)
	resp, data := e.request(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?from=2024-03-10&to=2024-03-01", nil)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(apiError(t, data).Message, "after") {
		t.Fatalf("reversed preview window: %d %s", resp.StatusCode, data)
	}
	for _, body := range []map[string]any{
		{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06", "concurrency": -5},
		{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06", "rate_per_min": 1e-12},
	} {
		for _, path := range []string{"/api/v1/backfills/plan", "/api/v1/backfills"} {
			resp, data := e.request(http.MethodPost, path, body)
			msg := ""
			if resp.StatusCode == http.StatusBadRequest {
				msg = apiError(t, data).Message
			}
			if !strings.Contains(msg, "between") {
				t.Fatalf("POST %s %v: %d %s, want 400 naming the accepted range", path, body, resp.StatusCode, data)
			}
		}
	}
	// The backfill table is gone: recording the launch fails in storage.
	if _, err := e.wh.DB().Exec(`DROP TABLE _strata.backfills`); err != nil {
		t.Fatal(err)
	}
	resp, data = e.request(http.MethodPost, "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-04", "to": "2024-03-06"})
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("storage failure at launch: %d %s, want 500", resp.StatusCode, data)
	}
}
