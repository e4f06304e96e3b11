package server

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stratahq/strata/server/auth"
)

// The editor who launched a backfill into an environment pauses, resumes
// and cancels it through the environment's routes; another editor, a
// viewer and the prod routes are refused (403); a backfill that is not
// into that environment is not found there (404).
func TestEditorStopsTheirOwnEnvBackfill(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.NoTriggers = true })
	tokens := roleTokens(t, e)
	_, other, err := e.srv.users.Add("u-other-editor", auth.Editor, "test")
	if err != nil {
		t.Fatal(err)
	}
	call := func(token, method, path string, body any, want int) []byte {
		t.Helper()
		resp, data := e.request(method, path, body, "Authorization", "Bearer "+token)
		if resp.StatusCode != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, data)
		}
		return data
	}
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs", map[string]string{"name": "dev"}, http.StatusCreated)
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs", map[string]string{"name": "qa"}, http.StatusCreated)
	// Paced to one partition a minute over a year: it runs until stopped.
	var st struct {
		ID    string `json:"id"`
		State string `json:"state"`
	}
	decode(t, call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs/dev/backfills",
		map[string]any{"pipeline": "clv", "from": "2023-01-01", "to": "2023-12-31", "rate": "1/m", "engine": "interp"}, http.StatusCreated), &st)
	base := "/api/v1/envs/dev/backfills/" + st.ID

	call(other, http.MethodPost, base+"/pause", map[string]any{}, http.StatusForbidden)
	call(tokens[auth.Viewer], http.MethodPost, base+"/cancel", map[string]any{}, http.StatusForbidden)
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/backfills/"+st.ID+"/cancel", map[string]any{}, http.StatusForbidden)
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs/qa/backfills/"+st.ID+"/cancel", map[string]any{}, http.StatusNotFound)
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs/nope/backfills/"+st.ID+"/cancel", map[string]any{}, http.StatusNotFound)

	state := func(data []byte) string {
		var s struct {
			State string `json:"state"`
		}
		decode(t, data, &s)
		return s.State
	}
	if got := state(call(tokens[auth.Editor], http.MethodPost, base+"/pause", map[string]any{}, http.StatusOK)); got != "paused" {
		t.Fatalf("paused by its launcher: %s", got)
	}
	if got := state(call(tokens[auth.Editor], http.MethodPost, base+"/resume", map[string]any{}, http.StatusOK)); got == "paused" {
		t.Fatalf("resumed by its launcher: %s", got)
	}
	call(tokens[auth.Editor], http.MethodPost, base+"/cancel", map[string]any{}, http.StatusOK)
	deadline := time.Now().Add(time.Minute)
	for {
		var now struct {
			State string `json:"state"`
		}
		decode(t, call(tokens[auth.Viewer], http.MethodGet, "/api/v1/backfills/"+st.ID, nil, http.StatusOK), &now)
		if now.State == "cancelled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("backfill after its launcher cancelled it: %s", now.State)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// A prod backfill is no environment's: an editor cannot reach it there.
	decode(t, call(tokens[auth.Operator], http.MethodPost, "/api/v1/backfills",
		map[string]any{"pipeline": "clv", "from": "2023-01-01", "to": "2023-12-31", "rate": "1/m", "engine": "interp"}, http.StatusCreated), &st)
	call(tokens[auth.Editor], http.MethodPost, "/api/v1/envs/dev/backfills/"+st.ID+"/cancel", map[string]any{}, http.StatusNotFound)
	call(tokens[auth.Operator], http.MethodPost, "/api/v1/backfills/"+st.ID+"/cancel", map[string]any{}, http.StatusOK)
}

func decode(t *testing.T, data []byte, out any) {
	t.Helper()
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
}
