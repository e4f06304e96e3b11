package alerts

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stratahq/strata/projects/project"
)

// Alert is one event a human should hear of.
type Alert struct {
	// ID is the event id the receiver de-duplicates on, set by Notify:
	// kind:subject:occurrence.
	ID       string    `json:"id"`
	Kind     string    `json:"kind"` // one of project.AlertKinds
	Subject  string    `json:"subject"`
	Pipeline string    `json:"pipeline,omitempty"`
	Title    string    `json:"title"`
	Text     string    `json:"text,omitempty"`
	Link     string    `json:"link"` // the page that explains it
	Project  string    `json:"project"`
	At       time.Time `json:"at"`
}

// Headers of a JSON delivery.
const (
	HeaderEvent     = "X-Strata-Event"     // the alert's event id
	HeaderSignature = "X-Strata-Signature" // sha256=<hex HMAC-SHA256 of the body with the webhook's secret>
	HeaderAttempt   = "X-Strata-Attempt"   // 1 for the first try
)

// Sign is the value of HeaderSignature for body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Verify checks a HeaderSignature value in constant time; receivers in Go
// can call it as it is.
func Verify(secret, body []byte, signature string) bool {
	return hmac.Equal([]byte(Sign(secret, body)), []byte(signature))
}

// body encodes a for a webhook's format.
func body(a Alert, format string) ([]byte, error) {
	if format == project.WebhookSlack {
		// Slack's incoming webhooks take text (mrkdwn) and blocks; the text
		// is also the notification's fallback.
		text := fmt.Sprintf("*%s*\n%s\n<%s|Open in Strata>", escapeSlack(a.Title), escapeSlack(a.Text), a.Link)
		return json.Marshal(map[string]any{
			"text": text,
			"blocks": []any{map[string]any{
				"type": "section",
				"text": map[string]string{"type": "mrkdwn", "text": text},
			}},
		})
	}
	return json.Marshal(a)
}

// escapeSlack escapes the three characters Slack's mrkdwn reserves.
func escapeSlack(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
