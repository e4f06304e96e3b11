package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/alerts"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
)

// TestBackfillFailureAlertsOnce: with `alerts:` written into strata.yaml
// through the API (taking effect without a restart), a backfill that fails
// is posted to a real receiver that fails twice first: it gets the alert
// once, signed, with the backfill's page as its link; the backfill's
// failed runs do not alert one by one.
func TestBackfillFailureAlertsOnce(t *testing.T) {
	t.Setenv("STRATA_TEST_HOOK_SECRET", "k3y")
	var mu sync.Mutex
	requests := 0
	var delivered [][]byte
	var sigs []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		requests++
		if requests <= 2 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		delivered = append(delivered, b)
		sigs = append(sigs, r.Header.Get(alerts.HeaderSignature))
	}))
	defer rcv.Close()

	var eng *engine.Engine
	e := newEnv(t, func(c *Config) {
		c.NoTriggers = true
		eng = c.Engine
		n, err := alerts.Open(alerts.Config{ProjectDir: c.ProjectDir, Project: "demo", BaseURL: "http://strata.test",
			Settings: func() project.AlertConfig { return eng.Project().Alerts }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(n.Close)
		c.Alerts = n
	})
	yml, err := os.ReadFile(filepath.Join(e.dir, "strata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	withAlerts := string(yml) + `
alerts:
  url: https://strata.example.com
  backoff: 1ms
  webhooks:
    - name: oncall
      url: ` + rcv.URL + `
      secret_env: STRATA_TEST_HOOK_SECRET
      on: [backfill_failed, run_failed]
`
	var sv settingsView
	e.call("PUT", "/api/v1/project/settings", map[string]string{"yaml": withAlerts}, 200, &sv)
	if len(sv.Problems) != 0 {
		t.Fatalf("alerts settings have problems: %+v", sv.Problems)
	}
	e.call("PUT", "/api/v1/pipelines/clv/blocks/daily_customer_metrics", map[string]string{"source": "SELECT * FROM no_such_table"}, 200, nil)
	var st engine.BackfillStatus
	e.call("POST", "/api/v1/backfills", map[string]any{"pipeline": "clv", "from": "2024-03-01", "to": "2024-03-02"}, 201, &st)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		mu.Lock()
		n := len(delivered)
		mu.Unlock()
		if n >= 1 && st.State.Final() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no alert delivered; backfill %s, %d requests", st.State, requests)
		}
		time.Sleep(50 * time.Millisecond)
		e.call("GET", "/api/v1/backfills/"+st.ID, nil, 200, &st)
	}
	if st.State != engine.StateFailed {
		t.Fatalf("backfill ended %s, want failed", st.State)
	}
	// Anything more would have been sent by now: the deliveries all ended.
	for _, d := range e.srv.cfg.Alerts.Deliveries("") {
		if d.State != alerts.StateDelivered {
			t.Fatalf("delivery %+v not delivered", d)
		}
	}
	var listed struct {
		Deliveries []alerts.DeliveryStatus `json:"deliveries"`
	}
	e.call("GET", "/api/v1/alerts?state=delivered", nil, 200, &listed)
	if len(listed.Deliveries) != 1 || listed.Deliveries[0].Attempts != 3 || listed.Deliveries[0].Webhook != "oncall" {
		t.Fatalf("GET /alerts: %+v", listed.Deliveries)
	}
	e.call("GET", "/api/v1/alerts?state=lost", nil, http.StatusBadRequest, nil)
	mu.Lock()
	defer mu.Unlock()
	if requests != 3 || len(delivered) != 1 {
		t.Fatalf("receiver: %d requests, %d delivered; want 3 and 1: %s", requests, len(delivered), delivered)
	}
	var a alerts.Alert
	if err := json.Unmarshal(delivered[0], &a); err != nil {
		t.Fatal(err)
	}
	if a.Kind != project.AlertBackfillFailed || a.ID != "backfill_failed:"+st.ID+":1" || a.Pipeline != "clv" ||
		a.Link != "https://strata.example.com/backfills/"+st.ID || !strings.Contains(a.Title, "failed") {
		t.Fatalf("alert %+v", a)
	}
	if !alerts.Verify([]byte("k3y"), delivered[0], sigs[0]) {
		t.Fatal("the signature does not verify")
	}
}
