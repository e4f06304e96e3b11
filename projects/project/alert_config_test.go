package project

import (
	"strings"
	"testing"
	"time"
)

// The alerts section: a good one reads as written (defaults filled); each
// mistake is one problem naming its field and what was expected.
func TestAlertSettings(t *testing.T) {
	t.Parallel()
	good := `name: x
alerts:
  url: https://strata.example.com
  attempts: 4
  backoff: 500ms
  webhooks:
    - name: oncall
      url: https://hooks.example.com/a
      secret_env: ONCALL_SECRET
      on: [backfill_failed, worker_lost]
    - name: slack
      url_env: SLACK_URL
      format: slack
`
	dir := writeProject(t, map[string]string{"strata.yaml": good})
	proj, err := Load(dir)
	if err != nil || len(proj.Problems) != 0 {
		t.Fatalf("load: %v %v", err, proj.Problems)
	}
	a := proj.Alerts
	if a.URL != "https://strata.example.com" || a.Attempts != 4 || a.Backoff != 500*time.Millisecond || len(a.Webhooks) != 2 {
		t.Fatalf("alerts %+v", a)
	}
	if w := a.Webhooks[0]; w.Format != WebhookJSON || !w.Wants(AlertWorkerLost) || w.Wants(AlertRunFailed) {
		t.Fatalf("oncall %+v", w)
	}
	if w := a.Webhooks[1]; !w.Wants(AlertRunFailed) || w.URLEnv != "SLACK_URL" {
		t.Fatalf("slack %+v", w)
	}

	for _, c := range []struct{ text, field, want string }{
		{"alerts:\n  attempts: 0\n", "alerts.attempts", "1 to 50"},
		{"alerts:\n  url: strata\n", "alerts.url", "address"},
		{"alerts:\n  webhooks:\n    - name: a\n      url: https://h/x\n", "alerts.webhooks[0]", "secret_env"},
		{"alerts:\n  webhooks:\n    - name: a\n      format: slack\n", "alerts.webhooks[0]", "exactly one of url and url_env"},
		{"alerts:\n  webhooks:\n    - name: a\n      url: https://h/x\n      format: teams\n", "alerts.webhooks[0].format", "json or slack"},
		{"alerts:\n  webhooks:\n    - name: a\n      url: https://h/x\n      format: slack\n      on: [run_faild]\n", "alerts.webhooks[0].on[0]", "run_failed"},
		{"alerts:\n  webhooks:\n    - name: a\n      url: https://h/x\n      format: slack\n    - name: a\n      url: https://h/y\n      format: slack\n", "alerts.webhooks[1].name", "duplicate"},
		{"alerts:\n  hooks: []\n", "alerts.hooks", "webhooks"},
	} {
		dir := writeProject(t, map[string]string{"strata.yaml": c.text})
		proj, _ := Load(dir)
		found := false
		for _, p := range proj.Problems {
			if p.Field == c.field && strings.Contains(p.Message, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: problems %v, want one at %s saying %q", c.text, proj.Problems, c.field, c.want)
		}
	}
}
