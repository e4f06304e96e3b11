package project

import (
	"net/url"
	"os"
	"regexp"
	"slices"
	"time"

	"gopkg.in/yaml.v3"
)

// The `alerts:` section of strata.yaml: which events tell a human, and
// through which webhooks. Delivery lives in projects/alerts; this file only
// reads and checks the settings. Secrets (the HMAC key, a Slack URL) are
// never written here: the file names environment variables that hold them.
//
//	alerts:
//	  url: https://strata.example.com      # base of the links in alerts
//	  attempts: 6                          # tries per delivery, then a dead letter
//	  backoff: 2s                          # wait before the first retry, doubling
//	  webhooks:
//	    - name: oncall
//	      url: https://hooks.example.com/strata
//	      format: json                     # signed with HMAC-SHA256 (secret_env)
//	      secret_env: STRATA_ONCALL_SECRET
//	      on: [backfill_failed, needs_attention]   # default: every kind
//	    - name: team-slack
//	      url_env: SLACK_WEBHOOK_URL
//	      format: slack

// Alert kinds: what an alert can be about.
const (
	AlertRunFailed       = "run_failed"       // a run not part of a backfill failed
	AlertBackfillFailed  = "backfill_failed"  // a backfill ended failed
	AlertNeedsAttention  = "needs_attention"  // a backfill ended with conflicts to resolve
	AlertReviewReady     = "review_ready"     // a review backfill is staged and ready
	AlertCheckFailed     = "check_failed"     // a review backfill's checks failed
	AlertFreshnessFailed = "freshness_failed" // a freshness refresh of a product failed
	AlertTriggerFailed   = "trigger_failed"   // a trigger could not launch its work
	AlertWorkerLost      = "worker_lost"      // a worker stopped answering
)

// AlertKinds lists every alert kind.
var AlertKinds = []string{AlertRunFailed, AlertBackfillFailed, AlertNeedsAttention, AlertReviewReady,
	AlertCheckFailed, AlertFreshnessFailed, AlertTriggerFailed, AlertWorkerLost}

// Webhook formats.
const (
	WebhookJSON  = "json"  // Strata's own body, signed
	WebhookSlack = "slack" // Slack's incoming-webhook body
)

// Defaults of AlertConfig.
const (
	DefaultAlertAttempts = 6
	DefaultAlertBackoff  = 2 * time.Second
)

// AlertConfig is the alerts section.
type AlertConfig struct {
	URL      string // base of the links in alerts; the server's address when empty
	Attempts int
	Backoff  time.Duration
	Webhooks []Webhook
}

// Webhook is one receiver of alerts.
type Webhook struct {
	Name      string
	URL       string // the URL itself, or
	URLEnv    string // the environment variable that holds it
	Format    string
	SecretEnv string   // environment variable holding the HMAC key (json)
	On        []string // alert kinds; every kind when empty
	Line      int
}

// Wants reports whether the webhook takes alerts of kind.
func (w *Webhook) Wants(kind string) bool { return len(w.On) == 0 || slices.Contains(w.On, kind) }

// Target is the webhook's URL, read from the environment if so configured.
func (w *Webhook) Target() string {
	if w.URLEnv != "" {
		return os.Getenv(w.URLEnv)
	}
	return w.URL
}

// Secret is the webhook's HMAC key, read from the environment.
func (w *Webhook) Secret() string {
	if w.SecretEnv == "" {
		return ""
	}
	return os.Getenv(w.SecretEnv)
}

var (
	alertFields   = []string{"url", "attempts", "backoff", "webhooks"}
	webhookFields = []string{"name", "url", "url_env", "format", "secret_env", "on"}
	envNameRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	hookNameRE    = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,63}$`)
)

func (d *decoder) decodeAlerts(a *AlertConfig, e entry) {
	f, ok := d.fields(e.val, "alerts", "alert settings", alertFields)
	if !ok {
		return
	}
	if e, ok := f["url"]; ok {
		if s, ok := d.str(e, "alerts.url"); ok {
			if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				d.addf(e.val, "alerts.url", "url %q: want the address people open Strata at, such as https://strata.example.com", s)
			} else {
				a.URL = s
			}
		}
	}
	if e, ok := f["attempts"]; ok {
		if n, ok := d.integer(e, "alerts.attempts"); ok {
			if n < 1 || n > 50 {
				d.addf(e.val, "alerts.attempts", "attempts %d: want 1 to 50 tries per delivery", n)
			} else {
				a.Attempts = n
			}
		}
	}
	if e, ok := f["backoff"]; ok {
		if v, ok := d.duration(e, "alerts.backoff", false); ok {
			a.Backoff = v
		}
	}
	e, ok = f["webhooks"]
	if !ok {
		return
	}
	if e.val.Kind != yaml.SequenceNode {
		d.addf(e.val, "alerts.webhooks", "want a list of webhooks (each starting with \"- name: ...\"), got %s", describe(e.val))
		return
	}
	seen := map[string]int{}
	for i, n := range e.val.Content {
		n = resolve(n)
		path := index("alerts.webhooks", i)
		wf, ok := d.fields(n, path, "a webhook", webhookFields)
		if !ok {
			continue
		}
		w := Webhook{Format: WebhookJSON, Line: n.Line}
		if e, ok := wf["name"]; !ok {
			d.addf(n, path+".name", "missing name: every webhook needs one, such as \"name: oncall\"")
			continue
		} else if w.Name, ok = d.str(e, path+".name"); !ok {
			continue
		} else if !hookNameRE.MatchString(w.Name) {
			d.addf(e.val, path+".name", "webhook name %q: want lowercase letters, digits, _ and -, starting with a letter", w.Name)
			continue
		} else if first, dup := seen[w.Name]; dup {
			d.addf(e.val, path+".name", "duplicate webhook name %q (first at line %d)", w.Name, first)
			continue
		}
		seen[w.Name] = n.Line
		if e, ok := wf["url"]; ok {
			if s, ok := d.str(e, path+".url"); ok {
				if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					d.addf(e.val, path+".url", "url %q: want an http or https URL", s)
				} else {
					w.URL = s
				}
			}
		}
		if e, ok := wf["url_env"]; ok {
			if s, ok := d.str(e, path+".url_env"); ok {
				if !envNameRE.MatchString(s) {
					d.addf(e.val, path+".url_env", "url_env %q: want the name of an environment variable", s)
				} else {
					w.URLEnv = s
				}
			}
		}
		_, hasURL := wf["url"]
		_, hasEnv := wf["url_env"]
		if hasURL == hasEnv {
			d.addf(n, path, "webhook %q needs exactly one of url and url_env (url_env keeps a secret URL, such as Slack's, out of the file)", w.Name)
		}
		if e, ok := wf["format"]; ok {
			if s, ok := d.str(e, path+".format"); ok {
				if s != WebhookJSON && s != WebhookSlack {
					d.addf(e.val, path+".format", "format %q: want json or slack", s)
				} else {
					w.Format = s
				}
			}
		}
		if e, ok := wf["secret_env"]; ok {
			if s, ok := d.str(e, path+".secret_env"); ok {
				if !envNameRE.MatchString(s) {
					d.addf(e.val, path+".secret_env", "secret_env %q: want the name of an environment variable", s)
				} else {
					w.SecretEnv = s
				}
			}
		}
		if w.Format == WebhookJSON && w.SecretEnv == "" {
			d.addf(n, path, "webhook %q sends signed JSON: set secret_env to the environment variable holding its HMAC key", w.Name)
		}
		if e, ok := wf["on"]; ok {
			kinds, nodes, _ := d.strList(e, path+".on")
			for j, k := range kinds {
				if !slices.Contains(AlertKinds, k) {
					d.addf(nodes[j], index(path+".on", j), "alert kind %q%s: want some of %s", k, didYouMean(k, AlertKinds), quoteList(AlertKinds))
				} else {
					w.On = append(w.On, k)
				}
			}
		}
		a.Webhooks = append(a.Webhooks, w)
	}
}
