// Package strataproc drives the real strata binary for tests: it builds
// cmd/strata once per test process, runs CLI commands, and starts, calls,
// kills and stops `strata start` over its HTTP API. The CLI tests of
// cmd/strata and the fault-injection suite (e2e/faults) share it, so the
// way a test talks to a running server is written once.
package strataproc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var build struct {
	once sync.Once
	dir  string
	err  error
	out  []byte
}

// Binary builds cmd/strata once per test process and returns its path.
// Call Cleanup from TestMain to remove it.
func Binary(t testing.TB) string {
	t.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "strata-bin-")
		if build.err == nil {
			build.out, build.err = exec.Command("go", "build", "-o", filepath.Join(build.dir, "strata"), "github.com/stratahq/strata/cmd/strata").CombinedOutput()
		}
	})
	if build.err != nil {
		t.Fatalf("build strata: %v\n%s", build.err, build.out)
	}
	return filepath.Join(build.dir, "strata")
}

// Cleanup removes the binary Binary built.
func Cleanup() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Run runs one strata command to its end and returns its combined output
// and exit code.
func Run(t testing.TB, bin string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("strata %s: %v", strings.Join(args, " "), err)
	}
	return string(out), 0
}

// Server is a running `strata start`.
type Server struct {
	Cmd    *exec.Cmd
	Base   string // http://127.0.0.1:PORT/api/v1
	Token  string
	Stderr *bytes.Buffer
	// Printed is what it wrote to stdout before its URL (for example, how
	// workers connect).
	Printed []string
}

// Start runs `strata start DIR` (with extra flags) on a free port with
// token and returns once it prints its URL. The process is killed when the test ends.
func Start(t testing.TB, bin, dir, token string, extra ...string) *Server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"start", dir, "--addr", "127.0.0.1:0", "--token", token}, extra...)...)
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
	var printed []string
	for lines.Scan() {
		if u := serving.FindString(lines.Text()); u != "" {
			go func() { // keep draining stdout
				for lines.Scan() {
				}
			}()
			return &Server{Cmd: cmd, Base: strings.TrimSuffix(u, "/") + "/api/v1", Token: token, Stderr: stderr, Printed: printed}
		}
		printed = append(printed, lines.Text())
	}
	_ = cmd.Wait()
	t.Fatalf("strata start printed no URL:\n%s", stderr)
	return nil
}

// Call sends an authenticated request to the API (path below /api/v1),
// fails the test on a status of 300 or more, and decodes the answer into out.
func (s *Server) Call(t testing.TB, method, path, body string, out any) {
	t.Helper()
	status, data, err := s.Request(method, path, body)
	if err != nil {
		t.Fatal(err)
	}
	if status >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
}

// Request sends an authenticated request and returns the status and body.
func (s *Server) Request(method, path, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, s.Base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+s.Token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(resp.Body)
	return resp.StatusCode, b.Bytes(), err
}

// Progress is the part of a backfill's status the tests look at.
type Progress struct {
	State     string `json:"state"`
	Succeeded int    `json:"succeeded"`
	Skipped   int    `json:"skipped"`
	Failed    int    `json:"failed"`
	Cancelled int    `json:"cancelled"`
	// Elapsed is from the backfill's creation to its last event (to now
	// while it runs).
	Elapsed time.Duration `json:"elapsed"`
}

// Backfill is a backfill's status as the API answers it.
type Backfill struct {
	ID       string   `json:"id"`
	State    string   `json:"state"`
	Message  string   `json:"message"`
	Total    int      `json:"total"`
	Progress Progress `json:"progress"`
}

// WaitFor polls a backfill until ok holds (Progress.State is the
// backfill's state), failing the test after two minutes.
func (s *Server) WaitFor(t testing.TB, id string, ok func(Progress) bool) Backfill {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var st Backfill
		s.Call(t, http.MethodGet, "/backfills/"+id, "", &st)
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

// Kill sends SIGKILL and waits for the process to be gone.
func (s *Server) Kill() {
	_ = s.Cmd.Process.Signal(syscall.SIGKILL)
	_ = s.Cmd.Wait()
}

// Stop sends SIGTERM and expects a clean exit within 30 seconds, with no
// warehouse connection left in use.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if err := s.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("strata start after SIGTERM: %v\n%s", err, s.Stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("strata start did not stop within 30 s of SIGTERM\n%s", s.Stderr)
	}
	if strings.Contains(s.Stderr.String(), "connections still in use") {
		t.Fatalf("shutdown left connections in use:\n%s", s.Stderr)
	}
	if s.Stderr.Len() > 0 {
		t.Log(s.Stderr.String())
	}
}
