package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/triggers/launcher"
)

// TestTriggerPreviewSaysWhenTruncated: a preview used to stop silently at
// its limit (1000 by default). It says so, and where the next page starts.
func TestTriggerPreviewSaysWhenTruncated(t *testing.T) {
	e := newEnv(t)
	writeTiny(t, e, tinyTriggers)
	var page struct {
		Ticks     []launcher.Tick
		Truncated *bool      `json:"truncated"`
		NextFrom  *time.Time `json:"next_from"`
	}
	e.call("GET", "/api/v1/pipelines/tiny/triggers/nightly/preview?from=2024-03-09&to=2024-03-11&limit=2", nil, http.StatusOK, &page)
	if len(page.Ticks) != 2 || page.Truncated == nil || !*page.Truncated || page.NextFrom == nil || page.NextFrom.Format(time.RFC3339) != "2024-03-11T06:30:00Z" {
		t.Fatalf("a preview cut at its limit: %d ticks, truncated %v, next_from %v", len(page.Ticks), page.Truncated, page.NextFrom)
	}
	page.Truncated, page.NextFrom = nil, nil
	e.call("GET", "/api/v1/pipelines/tiny/triggers/nightly/preview?from=2024-03-11T06:30:00Z&to=2024-03-11&limit=2", nil, http.StatusOK, &page)
	if len(page.Ticks) != 1 || page.Truncated == nil || *page.Truncated || page.NextFrom != nil {
		t.Fatalf("the next page: %+v", page)
	}
	// Exactly the limit is not truncated.
	page.Truncated = nil
	e.call("GET", "/api/v1/pipelines/tiny/triggers/nightly/preview?from=2024-03-09&to=2024-03-10&limit=2", nil, http.StatusOK, &page)
	if len(page.Ticks) != 2 || page.Truncated == nil || *page.Truncated {
		t.Fatalf("a preview of exactly its limit: %+v", page)
	}
}
