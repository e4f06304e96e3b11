// Package jaegertest starts a throwaway Jaeger for tests: the real
// all-in-one binary (github.com/jaegertracing/jaeger/cmd/jaeger v1.75.0,
// built by `make setup` into $HOME/.cache/strata/tools/jaeger-<Version>)
// with in-memory storage, an OTLP/HTTP receiver and the query API on free
// ports of 127.0.0.1, stopped when the test ends. Tests send spans the way
// production does (OTLP) and read them back through Jaeger's query API.
//
// Without the binary a test is skipped with the reason, except under CI
// (CI=true), where it fails.
package jaegertest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Version is the Jaeger version `make setup` builds; ToolDir is named after it.
const Version = "v1.75.0"

// ToolDir is where `make setup` builds jaeger.
func ToolDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "strata", "tools", "jaeger-"+Version)
}

// Path finds the jaeger binary: $STRATA_JAEGER, ToolDir, or $PATH.
func Path() string {
	if p := os.Getenv("STRATA_JAEGER"); p != "" {
		return p
	}
	if p := filepath.Join(ToolDir(), "jaeger"); fileExists(p) {
		return p
	}
	if p, err := exec.LookPath("jaeger"); err == nil {
		return p
	}
	return ""
}

// Server is a running Jaeger.
type Server struct {
	OTLP     string // http://127.0.0.1:PORT, the OTLP/HTTP receiver (what --otlp-endpoint takes)
	QueryURL string // http://127.0.0.1:PORT, the query API and UI

	cmd  *exec.Cmd
	done chan struct{}
	exit error
	logf string
}

const config = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:%d
    grpc:
      endpoint: 127.0.0.1:%d
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`

// Start starts a Jaeger for t; it stops when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Path()
	if bin == "" {
		why := "no Jaeger binary: `make setup` builds it into " + ToolDir() + " (or set STRATA_JAEGER)"
		if os.Getenv("CI") == "true" {
			t.Fatal(why + "; CI must run the tracing tests")
		}
		t.Skip(why)
	}
	dir := t.TempDir()
	query, grpc, otlp := freePort(t), freePort(t), freePort(t)
	cfg := filepath.Join(dir, "jaeger.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(config, query, grpc, otlp)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &Server{OTLP: "http://127.0.0.1:" + strconv.Itoa(otlp), QueryURL: "http://127.0.0.1:" + strconv.Itoa(query), logf: filepath.Join(dir, "jaeger.log")}
	logw, err := os.Create(s.logf)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd = exec.Command(bin, "--config", cfg)
	s.cmd.Stdout, s.cmd.Stderr = logw, logw
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start jaeger: %v", err)
	}
	s.done = make(chan struct{})
	go func() { s.exit = s.cmd.Wait(); logw.Close(); close(s.done) }()
	t.Cleanup(s.stop)
	if err := s.waitReady(90 * time.Second); err != nil {
		t.Fatalf("jaeger did not become ready: %v\n%s", err, s.Log())
	}
	return s
}

func (s *Server) stop() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

// Log is what Jaeger printed so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logf)
	return string(b)
}

func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("jaeger exited: %v", s.exit)
		default:
		}
		last = nil
		for _, u := range []string{s.QueryURL + "/api/services", s.OTLP + "/v1/traces"} {
			resp, err := http.Get(u)
			if err != nil {
				last = err
				break
			}
			resp.Body.Close()
			// The receiver answers a GET with 405: it is listening.
			if resp.StatusCode >= 500 {
				last = fmt.Errorf("%s: %s", u, resp.Status)
			}
		}
		if last == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// Trace is one trace as the query API returns it.
type Trace struct {
	TraceID string `json:"traceID"`
	Spans   []Span `json:"spans"`
	Raw     string `json:"-"` // the whole answer for this trace, for "never in a span" checks
}

// Span is one span of a Trace.
type Span struct {
	TraceID       string `json:"traceID"`
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	Tags []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
}

// Tag is a span's attribute as text; "" when absent.
func (s Span) Tag(key string) string {
	for _, t := range s.Tags {
		if t.Key == key {
			return fmt.Sprint(t.Value)
		}
	}
	return ""
}

// Parent is the span's parent span id; "" for a root.
func (s Span) Parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// Traces lists the traces of service that hold an operation (all when
// operation is empty), newest first.
func (s *Server) Traces(service, operation string) ([]Trace, error) {
	q := url.Values{"service": {service}, "limit": {"50"}, "lookback": {"1h"}}
	if operation != "" {
		q.Set("operation", operation)
	}
	var out struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := s.get("/api/traces?"+q.Encode(), &out); err != nil {
		return nil, err
	}
	traces := make([]Trace, 0, len(out.Data))
	for _, raw := range out.Data {
		var tr Trace
		if err := json.Unmarshal(raw, &tr); err != nil {
			return nil, err
		}
		tr.Raw = string(raw)
		traces = append(traces, tr)
	}
	return traces, nil
}

// Trace reads one trace by id.
func (s *Server) Trace(id string) (Trace, error) {
	var out struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := s.get("/api/traces/"+url.PathEscape(id), &out); err != nil {
		return Trace{}, err
	}
	if len(out.Data) != 1 {
		return Trace{}, fmt.Errorf("trace %s: %d traces in the answer", id, len(out.Data))
	}
	var tr Trace
	err := json.Unmarshal(out.Data[0], &tr)
	tr.Raw = string(out.Data[0])
	return tr, err
}

func (s *Server) get(path string, out any) error {
	resp, err := http.Get(s.QueryURL + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", path, resp.Status, b)
	}
	return json.Unmarshal(b, out)
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
