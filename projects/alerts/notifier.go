package alerts

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stratahq/strata/projects/project"
)

// maxBackoff caps the wait between two attempts.
const maxBackoff = time.Minute

// Config is what a Notifier needs.
type Config struct {
	// ProjectDir holds the journal (.strata/alerts.jsonl).
	ProjectDir string
	// Project is the project's name, in every alert.
	Project string
	// Settings returns the alerts section of strata.yaml as it is now, so
	// that an edit of the file takes effect without a restart.
	Settings func() project.AlertConfig
	// BaseURL is where people open Strata, for links, when the settings
	// name none (the server's own address).
	BaseURL string
	Client  *http.Client // http.Client with a 10 s timeout when nil
	Logger  *slog.Logger
	Now     func() time.Time
}

// Notifier turns events into deliveries and delivers them.
type Notifier struct {
	cfg Config
	j   *journal

	mu sync.Mutex
	// occurrences counts the alerts per kind:subject; disarmed holds the
	// keys that alerted and have not started again since (a repeat of
	// the same failure is then the same event, not a new one).
	occurrences map[string]int
	disarmed    map[string]bool
	deliveries  map[string]*DeliveryStatus
	closed      bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// DeliveryStatus is where one delivery stands.
type DeliveryStatus struct {
	Delivery string    `json:"delivery"`
	Webhook  string    `json:"webhook"`
	State    string    `json:"state"`
	Attempts int       `json:"attempts"`
	Error    string    `json:"error,omitempty"`
	Alert    Alert     `json:"alert"`
	At       time.Time `json:"at"`
}

// Open reads the journal and resumes the deliveries it left pending.
func Open(cfg Config) (*Notifier, error) {
	if cfg.Settings == nil {
		return nil, fmt.Errorf("alerts: Settings is required")
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	n := &Notifier{cfg: cfg, j: &journal{path: JournalFile(cfg.ProjectDir)},
		occurrences: map[string]int{}, disarmed: map[string]bool{}, deliveries: map[string]*DeliveryStatus{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	recs, err := n.j.load(cfg.Now())
	if err != nil {
		return nil, err
	}
	var pending []record
	for _, rec := range recs {
		a := *rec.Alert
		key := a.Kind + ":" + a.Subject
		if occ := occurrence(a.ID); occ > n.occurrences[key] {
			n.occurrences[key] = occ
		}
		// After a restart, the engine may publish again what it published
		// before (a resumed backfill that fails the same way starts again,
		// which re-arms it); until then, the same key is the same event.
		n.disarmed[key] = true
		n.deliveries[rec.Delivery] = &DeliveryStatus{Delivery: rec.Delivery, Webhook: rec.Webhook, State: rec.State,
			Attempts: rec.Attempt, Error: rec.Error, Alert: a, At: rec.At}
		if rec.State == StateQueued || rec.State == StateFailed {
			pending = append(pending, rec)
		}
	}
	for _, rec := range pending {
		n.start(rec.Delivery, rec.Webhook, *rec.Alert, rec.Attempt)
	}
	return n, nil
}

// occurrence reads the number at the end of an event id.
func occurrence(id string) int {
	i := strings.LastIndexByte(id, ':')
	n, _ := strconv.Atoi(id[i+1:])
	return n
}

// Notify records a (its ID, Project, At and Link are filled here) and
// delivers it to every webhook that takes its kind. A second Notify of the
// same kind and subject before Rearm is the same event and is dropped.
// link is the page's path ("/backfills/bf_1").
func (n *Notifier) Notify(a Alert, link string) {
	settings := n.cfg.Settings()
	var hooks []project.Webhook
	for _, w := range settings.Webhooks {
		if w.Wants(a.Kind) {
			hooks = append(hooks, w)
		}
	}
	key := a.Kind + ":" + a.Subject
	n.mu.Lock()
	if n.closed || n.disarmed[key] || len(hooks) == 0 {
		n.mu.Unlock()
		return
	}
	n.occurrences[key]++
	n.disarmed[key] = true
	a.ID = key + ":" + strconv.Itoa(n.occurrences[key])
	n.mu.Unlock()

	a.Project = n.cfg.Project
	if a.At.IsZero() {
		a.At = n.cfg.Now().UTC()
	}
	base := settings.URL
	if base == "" {
		base = n.cfg.BaseURL
	}
	a.Link = strings.TrimSuffix(base, "/") + link
	for _, w := range hooks {
		id := a.ID + ">" + w.Name
		rec := record{Delivery: id, Webhook: w.Name, State: StateQueued, Alert: &a, At: n.cfg.Now().UTC()}
		if err := n.j.append(rec); err != nil {
			// Without the journal a restart could send it twice or never;
			// try now anyway, the alert matters more.
			n.cfg.Logger.Error("alerts: journal a delivery", "delivery", id, "err", err)
		}
		n.mu.Lock()
		n.deliveries[id] = &DeliveryStatus{Delivery: id, Webhook: w.Name, State: StateQueued, Alert: a, At: rec.At}
		n.mu.Unlock()
		n.start(id, w.Name, a, 0)
	}
}

// Rearm lets every kind of alert about subject fire again: the run or
// backfill has started again since it last alerted.
func (n *Notifier) Rearm(subject string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, kind := range project.AlertKinds {
		delete(n.disarmed, kind+":"+subject)
	}
}

// Deliveries lists the deliveries known since the journal's last
// compaction, in state ("" for all).
func (n *Notifier) Deliveries(state string) []DeliveryStatus {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []DeliveryStatus
	for _, d := range n.deliveries {
		if state == "" || d.State == state {
			out = append(out, *d)
		}
	}
	return out
}

// Close stops retrying; what is pending stays in the journal for the next
// start.
func (n *Notifier) Close() {
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	n.cancel()
	n.wg.Wait()
}

// start delivers in the background; done attempts were made before.
func (n *Notifier) start(id, webhook string, a Alert, done int) {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.wg.Add(1)
	n.mu.Unlock()
	go func() {
		defer n.wg.Done()
		n.deliver(id, webhook, a, done)
	}()
}

func (n *Notifier) deliver(id, webhook string, a Alert, done int) {
	for attempt := done + 1; ; attempt++ {
		settings := n.cfg.Settings()
		attempts, backoff := settings.Attempts, settings.Backoff
		if attempts <= 0 {
			attempts = project.DefaultAlertAttempts
		}
		if backoff <= 0 {
			backoff = project.DefaultAlertBackoff
		}
		if attempt > 1 {
			wait := backoff << min(attempt-2, 20)
			if wait > maxBackoff || wait <= 0 {
				wait = maxBackoff
			}
			select {
			case <-time.After(wait):
			case <-n.ctx.Done():
				return
			}
		}
		var w *project.Webhook
		for i := range settings.Webhooks {
			if settings.Webhooks[i].Name == webhook {
				w = &settings.Webhooks[i]
			}
		}
		status, err := 0, error(nil)
		if w == nil {
			err, attempt = fmt.Errorf("webhook %q is no longer in strata.yaml's alerts", webhook), attempts
		} else {
			status, err = n.post(w, a, attempt)
		}
		if n.ctx.Err() != nil {
			return // shutting down: the attempt may not have happened; the journal keeps it pending
		}
		rec := record{Delivery: id, Webhook: webhook, Attempt: attempt, Status: status, Alert: &a, At: n.cfg.Now().UTC()}
		switch {
		case err == nil:
			rec.State = StateDelivered
		case attempt >= attempts:
			rec.State, rec.Error = StateDead, err.Error()
			n.cfg.Logger.Error("alerts: gave up on a delivery (dead letter in .strata/alerts.jsonl)", "delivery", id, "attempts", attempt, "err", err)
		default:
			rec.State, rec.Error = StateFailed, err.Error()
		}
		if jerr := n.j.append(rec); jerr != nil {
			n.cfg.Logger.Error("alerts: journal a delivery", "delivery", id, "err", jerr)
		}
		n.mu.Lock()
		n.deliveries[id] = &DeliveryStatus{Delivery: id, Webhook: webhook, State: rec.State, Attempts: attempt, Error: rec.Error, Alert: a, At: rec.At}
		n.mu.Unlock()
		if rec.State != StateFailed {
			return
		}
	}
}

// post makes one attempt; a non-2xx answer is an error.
func (n *Notifier) post(w *project.Webhook, a Alert, attempt int) (int, error) {
	target := w.Target()
	if target == "" {
		return 0, fmt.Errorf("webhook %q: environment variable %s is empty", w.Name, w.URLEnv)
	}
	b, err := body(a, w.Format)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(n.ctx, http.MethodPost, target, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "strata-alerts")
	req.Header.Set(HeaderEvent, a.ID)
	req.Header.Set(HeaderAttempt, strconv.Itoa(attempt))
	if w.Format == project.WebhookJSON {
		secret := w.Secret()
		if secret == "" {
			return 0, fmt.Errorf("webhook %q: environment variable %s (its HMAC key) is empty", w.Name, w.SecretEnv)
		}
		req.Header.Set(HeaderSignature, Sign([]byte(secret), b))
	}
	resp, err := n.cfg.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("webhook %q answered %s", w.Name, resp.Status)
	}
	return resp.StatusCode, nil
}
