package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTriggerForm: the trigger form edits the pipeline file through the API:
// create, change kind, a bad cron refused naming the field with nothing
// written, a stale ETag refused with the text on disk (the YAML cell's
// conflict), delete; and the cron preview reads the expression in the zone.
func TestTriggerForm(t *testing.T) {
	e := newEnv(t)
	writeTiny(t, e, tinyTriggers)
	file := filepath.Join(e.dir, "pipelines/tiny.yaml")
	read := func() string {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	var prev struct {
		Words string `json:"words"`
		Next  []struct{ Local, In string }
	}
	e.call("GET", "/api/v1/triggers/schedule-preview?cron=0+9+*+*+1-5&timezone=Europe/Paris&n=4", nil, http.StatusOK, &prev)
	if prev.Words != "at 09:00 on Monday to Friday" || len(prev.Next) != 4 || !strings.Contains(prev.Next[0].Local, "09:00 CE") || !strings.HasPrefix(prev.Next[0].In, "in ") {
		t.Fatalf("preview: %+v", prev)
	}
	data := e.call("GET", "/api/v1/triggers/schedule-preview?cron=0+25+*+*+*&timezone=UTC", nil, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "five fields") {
		t.Fatalf("a bad cron: %+v", ae)
	}

	var pl struct {
		YAML string `json:"yaml"`
		ETag string `json:"etag"`
	}
	e.call("GET", "/api/v1/pipelines/tiny", nil, http.StatusOK, &pl)
	etag := pl.ETag
	resp, data := e.request("POST", "/api/v1/pipelines/tiny/triggers", map[string]any{"id": "weekdays", "kind": "schedule", "cron": "0 9 * * 1-5", "catch_up": 3}, "If-Match", etag)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("create: %d %s", resp.StatusCode, data)
	}
	if !strings.HasSuffix(read(), "  - id: weekdays\n    schedule:\n      cron: \"0 9 * * 1-5\"\n    catch_up:\n      max: 3\n") {
		t.Fatalf("file after create:\n%s", read())
	}
	var list struct{ Triggers []struct{ ID, Kind string } }
	e.call("GET", "/api/v1/pipelines/tiny/triggers", nil, http.StatusOK, &list)
	if len(list.Triggers) != 3 || list.Triggers[2].ID != "weekdays" {
		t.Fatalf("triggers after create: %+v", list.Triggers)
	}

	// The form was filled from the old text: 412 with the file as it is now.
	before := read()
	resp, data = e.request("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "weekdays", "kind": "api"}, "If-Match", etag)
	if ae := apiError(t, data); resp.StatusCode != http.StatusPreconditionFailed || ae.Code != CodeChangedElsewhere {
		t.Fatalf("stale form: %d %s", resp.StatusCode, data)
	}
	// A bad cron: 400 naming the field, nothing written.
	data = e.call("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "weekdays", "kind": "schedule", "cron": "0 9 * *"}, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "schedule.cron: bad cron") || read() != before {
		t.Fatalf("bad cron: %+v", ae)
	}
	data = e.call("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "weekdays", "kind": "schedule", "cron": "0 9 * * *", "timezone": "Mars/Base"}, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "Mars/Base") || read() != before {
		t.Fatalf("bad zone: %+v", ae)
	}
	data = e.call("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "nightly", "kind": "api"}, http.StatusConflict, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "already has a trigger \"nightly\"") {
		t.Fatalf("duplicate id: %+v", ae)
	}
	data = e.call("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "weekdays", "kind": "event", "product": "nobody_writes_this"}, http.StatusBadRequest, nil)
	if ae := apiError(t, data); !strings.Contains(ae.Message, "no pipeline writes a product") {
		t.Fatalf("unknown product: %+v", ae)
	}
	// Kind and id change in place.
	e.call("PUT", "/api/v1/pipelines/tiny/triggers/weekdays", map[string]any{"id": "by-hand", "kind": "api", "run": "last 2"}, http.StatusOK, nil)
	if !strings.HasSuffix(read(), "  - id: by-hand\n    api: true\n    run: last 2\n") {
		t.Fatalf("file after edit:\n%s", read())
	}
	e.call("DELETE", "/api/v1/pipelines/tiny/triggers/by-hand", nil, http.StatusOK, nil)
	if read() != tinyTriggers {
		t.Fatalf("file after delete:\n%s", read())
	}
	e.call("DELETE", "/api/v1/pipelines/tiny/triggers/by-hand", nil, http.StatusNotFound, nil)
}
