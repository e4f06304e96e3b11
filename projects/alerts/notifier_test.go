package alerts

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/project"
)

// receiver is a real HTTP server that fails its first failFirst requests
// with 503 and records the bodies of the rest.
type receiver struct {
	*httptest.Server
	mu        sync.Mutex
	failFirst int
	requests  int
	got       []*http.Request
	bodies    [][]byte
}

func newReceiver(t *testing.T, failFirst int) *receiver {
	r := &receiver{failFirst: failFirst}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.requests++
		if r.requests <= r.failFirst {
			http.Error(w, "not now", http.StatusServiceUnavailable)
			return
		}
		r.got = append(r.got, req)
		r.bodies = append(r.bodies, b)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) counts() (requests, delivered int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.requests, len(r.bodies)
}

const secretEnv = "STRATA_TEST_ALERT_SECRET"

func settings(url string, attempts int, format string) func() project.AlertConfig {
	w := project.Webhook{Name: "oncall", URL: url, Format: format}
	if format == project.WebhookJSON {
		w.SecretEnv = secretEnv
	}
	return func() project.AlertConfig {
		return project.AlertConfig{URL: "https://strata.example.com", Attempts: attempts, Backoff: time.Millisecond, Webhooks: []project.Webhook{w}}
	}
}

func open(t *testing.T, dir string, s func() project.AlertConfig) *Notifier {
	t.Helper()
	n, err := Open(Config{ProjectDir: dir, Project: "demo", Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

// waitState waits for every delivery to reach state (what is being
// waited for is an outcome, never a duration: the deadline only ends a
// hung test).
func waitState(t *testing.T, n *Notifier, want int, state string) []DeliveryStatus {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ds := n.Deliveries(state)
		if len(ds) == want && len(n.Deliveries("")) == want {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries: %+v, want %d %s", n.Deliveries(""), want, state)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An alert is delivered once to a receiver that fails twice first: three
// requests, one body, with a signature that verifies, the event id in a
// header and the body, and a link to the page that explains it.
func TestDeliveredOnceAfterTwoFailures(t *testing.T) {
	t.Setenv(secretEnv, "s3cret")
	rcv := newReceiver(t, 2)
	n := open(t, t.TempDir(), settings(rcv.URL, 5, project.WebhookJSON))
	n.Notify(Alert{Kind: project.AlertBackfillFailed, Subject: "bf_1", Pipeline: "clv", Title: "Backfill bf_1 of clv failed"}, "/backfills/bf_1")
	ds := waitState(t, n, 1, StateDelivered)
	if ds[0].Attempts != 3 {
		t.Fatalf("delivered after %d attempts, want 3", ds[0].Attempts)
	}
	requests, delivered := rcv.counts()
	if requests != 3 || delivered != 1 {
		t.Fatalf("receiver saw %d requests, kept %d; want 3 and 1", requests, delivered)
	}
	req, b := rcv.got[0], rcv.bodies[0]
	if !Verify([]byte("s3cret"), b, req.Header.Get(HeaderSignature)) {
		t.Fatalf("signature %q does not verify", req.Header.Get(HeaderSignature))
	}
	if Verify([]byte("other"), b, req.Header.Get(HeaderSignature)) {
		t.Fatal("a signature verifies under another secret")
	}
	var a Alert
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	if a.ID != "backfill_failed:bf_1:1" || req.Header.Get(HeaderEvent) != a.ID || req.Header.Get(HeaderAttempt) != "3" ||
		a.Link != "https://strata.example.com/backfills/bf_1" || a.Project != "demo" {
		t.Fatalf("delivered %+v, headers %v", a, req.Header)
	}
}

// After the last attempt the delivery is a dead letter, in the journal.
func TestDeadLetterAfterLastAttempt(t *testing.T) {
	t.Setenv(secretEnv, "s3cret")
	rcv := newReceiver(t, 1000)
	dir := t.TempDir()
	n := open(t, dir, settings(rcv.URL, 3, project.WebhookJSON))
	n.Notify(Alert{Kind: project.AlertRunFailed, Subject: "run_1", Title: "Run failed"}, "/runs/run_1")
	ds := waitState(t, n, 1, StateDead)
	if requests, _ := rcv.counts(); requests != 3 || ds[0].Attempts != 3 || !strings.Contains(ds[0].Error, "503") {
		t.Fatalf("%d requests, dead letter %+v", requests, ds[0])
	}
	b, _ := os.ReadFile(JournalFile(dir))
	if !strings.Contains(string(b), `"state":"dead"`) {
		t.Fatalf("no dead letter in the journal:\n%s", b)
	}
}

// The same event published twice is one delivery; once its subject starts
// again, the next failure is a new event.
func TestNoDuplicatePerEvent(t *testing.T) {
	rcv := newReceiver(t, 0)
	n := open(t, t.TempDir(), settings(rcv.URL, 3, project.WebhookSlack))
	a := Alert{Kind: project.AlertBackfillFailed, Subject: "bf_1", Title: "Backfill <bf_1> failed"}
	n.Notify(a, "/backfills/bf_1")
	n.Notify(a, "/backfills/bf_1")
	waitState(t, n, 1, StateDelivered)
	n.Rearm("bf_1")
	n.Notify(a, "/backfills/bf_1")
	ds := waitState(t, n, 2, StateDelivered)
	ids := map[string]bool{}
	for _, d := range ds {
		ids[d.Alert.ID] = true
	}
	if !ids["backfill_failed:bf_1:1"] || !ids["backfill_failed:bf_1:2"] {
		t.Fatalf("event ids %v", ids)
	}
	// Slack's format: text with the link, the reserved characters escaped.
	var body struct {
		Text   string `json:"text"`
		Blocks []any  `json:"blocks"`
	}
	if err := json.Unmarshal(rcv.bodies[0], &body); err != nil || len(body.Blocks) != 1 ||
		!strings.Contains(body.Text, "&lt;bf_1&gt;") || !strings.Contains(body.Text, "<https://strata.example.com/backfills/bf_1|Open in Strata>") {
		t.Fatalf("slack body %s (%v)", rcv.bodies[0], err)
	}
	if rcv.got[0].Header.Get(HeaderSignature) != "" {
		t.Fatal("a slack delivery carries a signature header")
	}
}

// Delivery state survives a restart: what was pending is delivered by the
// next process; what was delivered is never sent again, and the event
// published again after the restart is the same event.
func TestDeliveryStateSurvivesRestart(t *testing.T) {
	t.Setenv(secretEnv, "s3cret")
	dir := t.TempDir()
	down := newReceiver(t, 1000)
	// First process: the receiver is down and retries are far apart, so the
	// delivery is pending when the process stops.
	slow := func() project.AlertConfig {
		c := settings(down.URL, 5, project.WebhookJSON)()
		c.Backoff = time.Hour
		return c
	}
	n1, err := Open(Config{ProjectDir: dir, Project: "demo", Settings: slow})
	if err != nil {
		t.Fatal(err)
	}
	a := Alert{Kind: project.AlertNeedsAttention, Subject: "bf_9", Title: "needs attention"}
	n1.Notify(a, "/backfills/bf_9")
	waitState(t, n1, 1, StateFailed)
	n1.Close()

	up := newReceiver(t, 0)
	n2 := open(t, dir, settings(up.URL, 5, project.WebhookJSON))
	waitState(t, n2, 1, StateDelivered)
	n2.Notify(a, "/backfills/bf_9") // the engine says it again after the restart
	n2.Close()

	n3 := open(t, dir, settings(up.URL, 5, project.WebhookJSON))
	n3.Notify(a, "/backfills/bf_9")
	waitState(t, n3, 1, StateDelivered)
	n3.Close()
	if requests, delivered := up.counts(); requests != 1 || delivered != 1 {
		t.Fatalf("after restarts the receiver saw %d requests, %d delivered; want 1 and 1", requests, delivered)
	}
	if up.got[0].Header.Get(HeaderEvent) != "needs_attention:bf_9:1" {
		t.Fatalf("event id %q", up.got[0].Header.Get(HeaderEvent))
	}
}
