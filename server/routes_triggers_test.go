package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/triggers/launcher"
)

const tinyTriggers = `partitions: {interval: day, timezone: America/New_York, start: "2024-01-01"}
blocks:
  - id: tiny
triggers:
  - id: nightly
    schedule: {cron: "30 2 * * *"}
    catch_up: {max: 2}
  - id: external
    api: true
    run: last 2
`

func writeTiny(t *testing.T, e *env, yaml string) {
	t.Helper()
	for p, c := range map[string]string{"pipelines/tiny.yaml": yaml, "blocks/tiny.sql": "SELECT $partition_key AS day\n"} {
		full := filepath.Join(e.dir, p)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.srv.reload(); err != nil {
		t.Fatal(err)
	}
}

func TestTriggerRoutes(t *testing.T) {
	e := newEnv(t)
	writeTiny(t, e, tinyTriggers)

	var list struct{ Triggers []launcher.Status }
	e.call("GET", "/api/v1/pipelines/tiny/triggers?next=3", nil, http.StatusOK, &list)
	if len(list.Triggers) != 2 || list.Triggers[0].ID != "nightly" || len(list.Triggers[0].Next) != 3 || !strings.HasSuffix(list.Triggers[0].Next[0].Local, "02:30 EST") && !strings.HasSuffix(list.Triggers[0].Next[0].Local, "02:30 EDT") {
		t.Fatalf("list: %+v", list.Triggers)
	}

	var st launcher.Status
	e.call("POST", "/api/v1/pipelines/tiny/triggers/nightly/pause", nil, http.StatusOK, &st)
	if !st.Paused {
		t.Fatalf("pause: %+v", st)
	}
	if paused, _ := launcher.Paused(e.dir); len(paused) != 1 {
		t.Fatalf("pause not persisted: %v", paused)
	}
	e.call("POST", "/api/v1/pipelines/tiny/triggers/nightly/resume", nil, http.StatusOK, &st)
	if st.Paused {
		t.Fatalf("resume: %+v", st)
	}

	var prev struct{ Ticks []launcher.Tick }
	e.call("GET", "/api/v1/pipelines/tiny/triggers/nightly/preview?from=2024-03-09&to=2024-03-11", nil, http.StatusOK, &prev)
	var got []string
	for _, tk := range prev.Ticks {
		got = append(got, tk.At.Format(time.RFC3339)+"="+tk.From)
	}
	if want := "2024-03-09T07:30:00Z=2024-03-08 2024-03-10T07:00:00Z=2024-03-09 2024-03-11T06:30:00Z=2024-03-10"; strings.Join(got, " ") != want {
		t.Fatalf("preview: %v, want %s", got, want)
	}

	var fired struct {
		BackfillID string `json:"backfill_id"`
		Firing     launcher.Firing
	}
	e.call("POST", "/api/v1/pipelines/tiny/triggers/external/fire", map[string]string{"from": "2024-02-01", "to": "2024-02-03"}, http.StatusCreated, &fired)
	if fired.BackfillID == "" || fired.Firing.From != "2024-02-01" {
		t.Fatalf("fire: %+v", fired)
	}
	if _, err := e.eng.Wait(t.Context(), fired.BackfillID); err != nil {
		t.Fatal(err)
	}
	var runs struct{ Runs []engine.RunSummary }
	e.call("GET", "/api/v1/runs?pipeline=tiny&origin=trigger:external", nil, http.StatusOK, &runs)
	if len(runs.Runs) != 3 || runs.Runs[0].Origin == nil || runs.Runs[0].Origin.TriggerKind != "api" {
		t.Fatalf("runs by origin: %+v", runs.Runs)
	}
	e.call("GET", "/api/v1/runs?pipeline=tiny&origin=manual", nil, http.StatusOK, &runs)
	if len(runs.Runs) != 0 {
		t.Fatalf("manual runs: %+v", runs.Runs)
	}
	var one launcher.Status
	e.call("GET", "/api/v1/pipelines/tiny/triggers/external", nil, http.StatusOK, &one)
	if one.Last == nil || one.Last.WorkID != fired.BackfillID || one.Last.State != "succeeded" {
		t.Fatalf("last firing: %+v", one.Last)
	}

	// Refusals.
	e.call("POST", "/api/v1/pipelines/tiny/triggers/nope/fire", nil, http.StatusNotFound, nil)
	e.call("POST", "/api/v1/pipelines/tiny/triggers/external/fire", map[string]string{"partition": "2024-13-01"}, http.StatusBadRequest, nil)
	e.call("GET", "/api/v1/runs?origin=robot", nil, http.StatusBadRequest, nil)

	// A trigger added to the file is there after the reload, no restart.
	writeTiny(t, e, tinyTriggers+"  - id: hourly\n    schedule: {cron: \"0 * * * *\"}\n")
	e.call("GET", "/api/v1/pipelines/tiny/triggers", nil, http.StatusOK, &list)
	if len(list.Triggers) != 3 {
		t.Fatalf("after adding a trigger: %+v", list.Triggers)
	}
}

// TestTriggersOverWebsocket: list, pause, resume and preview, as over HTTP;
// a subscriber of pipeline:<id> sees the firing of an API call.
func TestTriggersOverWebsocket(t *testing.T) {
	e := newEnv(t)
	writeTiny(t, e, tinyTriggers)
	c := e.connect()
	ask := func(m ClientMessage) Message {
		t.Helper()
		m.Type, m.ID = MsgTriggers, c.nextID()
		c.send(m)
		got, _ := c.await("triggers answer", 10*time.Second, func(r Message) bool { return r.ID == m.ID })
		if got.Type != MsgTriggers {
			t.Fatalf("%s: %+v", m.Action, got.Error)
		}
		return got
	}
	if got := ask(ClientMessage{Action: "list", Pipeline: "tiny"}); len(got.Triggers) != 2 || len(got.Triggers[0].Next) == 0 {
		t.Fatalf("list: %+v", got.Triggers)
	}
	if got := ask(ClientMessage{Action: "pause", Pipeline: "tiny", Trigger: "nightly"}); len(got.Triggers) != 1 || !got.Triggers[0].Paused {
		t.Fatalf("pause: %+v", got.Triggers)
	}
	if got := ask(ClientMessage{Action: "resume", Pipeline: "tiny", Trigger: "nightly"}); got.Triggers[0].Paused {
		t.Fatalf("resume: %+v", got.Triggers)
	}
	if got := ask(ClientMessage{Action: "preview", Pipeline: "tiny", Trigger: "nightly", From: "2024-03-10", To: "2024-03-10"}); len(got.Ticks) != 1 || got.Ticks[0].At.Format(time.RFC3339) != "2024-03-10T07:00:00Z" {
		t.Fatalf("preview: %+v", got.Ticks)
	}
	c.send(ClientMessage{Type: MsgTriggers, ID: "bad", Action: "explode"})
	if got, _ := c.await("refusal", 10*time.Second, func(r Message) bool { return r.ID == "bad" }); got.Type != MsgError {
		t.Fatalf("unknown action: %+v", got)
	}

	c.send(ClientMessage{Type: MsgSubscribe, ID: "sub", Topic: "pipeline:tiny"})
	c.await("subscribed", 10*time.Second, func(r Message) bool { return r.Type == MsgSubscribed })
	e.call("POST", "/api/v1/pipelines/tiny/triggers/external/fire", map[string]string{"partition": "2024-02-01"}, http.StatusCreated, nil)
	c.await("the firing", 10*time.Second, func(r Message) bool {
		return r.Type == MsgEvent && r.Notice != nil && r.Notice.Kind == launcher.NoticeFiring
	})
}
