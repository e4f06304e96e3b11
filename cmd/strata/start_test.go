package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A SIGTERM to `strata start` in the middle of a backfill checkpoints it;
// the next `strata start` of the project resumes it and finishes it,
// without running again the partitions that had succeeded. This is the
// real binary, the real demo project and real HTTP.
func TestStartStopsGracefullyAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := builtBinary(t)
	demo := filepath.Join(dir, "demo")
	const token = "0123456789abcdef-test"

	srv := startServer(t, bin, demo, token)
	var launched struct {
		ID string `json:"id"`
	}
	srv.call(t, http.MethodPost, "/backfills", `{"pipeline": "clv", "from": "2024-01-01", "to": "2024-01-21", "concurrency": 2, "rate_per_min": 240}`, &launched)
	if launched.ID == "" {
		t.Fatal("no backfill id")
	}
	srv.waitFor(t, launched.ID, func(p progress) bool { return p.Succeeded >= 2 })
	before := srv.succeededRuns(t, launched.ID)
	srv.stop(t)

	srv = startServer(t, bin, demo, token)
	st := srv.waitFor(t, launched.ID, func(p progress) bool { return p.State != "running" })
	if st.State != "succeeded" || st.Progress.Failed != 0 {
		t.Fatalf("after the restart: %+v", st)
	}
	// Each partition succeeded exactly once across both processes.
	var parts struct {
		Partitions []struct {
			Key   string `json:"key"`
			State string `json:"state"`
		} `json:"partitions"`
		Total int `json:"total"`
	}
	srv.call(t, http.MethodGet, "/backfills/"+launched.ID+"/partitions?limit=100", "", &parts)
	if parts.Total != 21+3 { // 21 days and weeks 2024-W01..W03
		t.Fatalf("%d partitions, want 24: %+v", parts.Total, parts.Partitions)
	}
	for _, p := range parts.Partitions {
		if p.State != "succeeded" {
			t.Fatalf("partition %s is %s", p.Key, p.State)
		}
	}
	// What had succeeded before the stop was not run again after it.
	after := srv.succeededRuns(t, launched.ID)
	for run, started := range before {
		if after[run] != started {
			t.Fatalf("run %s started at %s before the stop and at %s after it", run, started, after[run])
		}
	}
	srv.stop(t)
}

// succeededRuns maps each succeeded partition run of a backfill to when its
// first block started.
func (s *startedServer) succeededRuns(t *testing.T, id string) map[string]string {
	t.Helper()
	var parts struct {
		Partitions []struct {
			RunID string `json:"run_id"`
		} `json:"partitions"`
	}
	s.call(t, http.MethodGet, "/backfills/"+id+"/partitions?state=succeeded&limit=100", "", &parts)
	out := map[string]string{}
	for _, p := range parts.Partitions {
		var run struct {
			Blocks []struct {
				StartedAt string `json:"started_at"`
			} `json:"blocks"`
		}
		s.call(t, http.MethodGet, "/runs/"+url.PathEscape(p.RunID), "", &run)
		if len(run.Blocks) == 0 || run.Blocks[0].StartedAt == "" {
			t.Fatalf("run %s has no started block run: %+v", p.RunID, run)
		}
		out[p.RunID] = run.Blocks[0].StartedAt
	}
	if len(out) == 0 {
		t.Fatal("no succeeded partitions")
	}
	return out
}

type progress struct {
	State     string `json:"state"`
	Succeeded int    `json:"succeeded"`
	Failed    int    `json:"failed"`
}

type bfStatus struct {
	State    string   `json:"state"`
	Progress progress `json:"progress"`
}

type startedServer struct {
	cmd    *exec.Cmd
	base   string
	token  string
	stderr *bytes.Buffer
}

func startServer(t *testing.T, bin, dir, token string) *startedServer {
	t.Helper()
	cmd := exec.Command(bin, "start", dir, "--addr", "127.0.0.1:0", "--token", token)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	serving := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if u := serving.FindString(lines.Text()); u != "" {
			go func() { // keep draining stdout
				for lines.Scan() {
				}
			}()
			return &startedServer{cmd: cmd, base: strings.TrimSuffix(u, "/") + "/api/v1", token: token, stderr: stderr}
		}
	}
	t.Fatalf("strata start printed no URL:\n%s", stderr)
	return nil
}

func (s *startedServer) call(t *testing.T, method, path, body string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b.String())
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

func (s *startedServer) waitFor(t *testing.T, id string, ok func(progress) bool) bfStatus {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var st bfStatus
		s.call(t, http.MethodGet, "/backfills/"+id, "", &st)
		st.Progress.State = st.State
		if ok(st.Progress) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("backfill %s: still %+v after 2 minutes", id, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop sends SIGTERM and expects a clean exit.
func (s *startedServer) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("strata start after SIGTERM: %v\n%s", err, s.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("strata start did not stop within 30 s of SIGTERM\n%s", s.stderr)
	}
	if strings.Contains(s.stderr.String(), "connections still in use") {
		t.Fatalf("shutdown left connections in use:\n%s", s.stderr)
	}
	fmt.Fprint(testWriter{t}, s.stderr.String())
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) { w.t.Log(string(p)); return len(p), nil }
