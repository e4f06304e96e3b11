package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/jaegertest"
	"github.com/stratahq/strata/e2e/strataproc"
)

// TestBackfillTraceInJaeger: `strata start --otlp-endpoint` against a real
// Jaeger. A four-day backfill whose Go block fails one day with a secret in
// its error is read back through Jaeger's query API: one trace whose root
// is the backfill, with one run span per partition (each a child of the
// backfill), kernel and publish spans below them; the failed partition's
// run record and the JSON log line about it carry that trace's id; the
// HTTP request that launched it has its own span named by route. The
// secret and the server's token appear in no trace (attributes, status,
// anything) and the failed run's error still says what failed, masked.
func TestBackfillTraceInJaeger(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts jaeger")
	}
	jg := jaegertest.Start(t)
	bin := strataproc.Binary(t)
	const secret = "s3cr3t-trace-7a1f9e"
	t.Setenv("STRATA_TEST_TRACE_SECRET", secret)
	dir := filepath.Join(t.TempDir(), "traced")
	writeTracedProject(t, dir)
	const token = "0123456789abcdef-trace"
	srv := strataproc.Start(t, bin, dir, token, "--otlp-endpoint", jg.OTLP, "--log-format", "json")
	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "days", "from": "2024-01-01", "to": "2024-01-04"}`, &launched)
	end := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" && p.State != "queued" })
	if end.Progress.Succeeded != 3 || end.Progress.Failed != 1 {
		t.Fatalf("the backfill: %+v", end)
	}
	// A request with the token in its query: the token must not reach a span.
	if status, _, err := srv.Request(http.MethodGet, "/me?token="+token, ""); err != nil || status != http.StatusOK {
		t.Fatalf("GET /me?token=: %d %v", status, err)
	}

	// The failed partition's run record names its trace.
	var list struct {
		Runs []struct {
			RunID     string `json:"run_id"`
			Partition string `json:"partition"`
			State     string `json:"state"`
			Error     string `json:"error"`
			TraceID   string `json:"trace_id"`
		} `json:"runs"`
	}
	srv.Call(t, http.MethodGet, "/runs?backfill="+url.QueryEscape(launched.ID)+"&state=failed", "", &list)
	runs := list.Runs
	if len(runs) != 1 || runs[0].Partition != "2024-01-03" || len(runs[0].TraceID) != 32 {
		t.Fatalf("failed runs of the backfill: %+v", runs)
	}
	if strings.Contains(runs[0].Error, secret) || !strings.Contains(runs[0].Error, "the API refused key") {
		t.Fatalf("the failed run's error: %q", runs[0].Error)
	}
	traceID := runs[0].TraceID

	// Jaeger has that trace: the backfill and one run span per partition.
	var tr jaegertest.Trace
	deadline := time.Now().Add(60 * time.Second)
	for {
		var err error
		tr, err = jg.Trace(traceID)
		if err == nil && countOps(tr, "run") == 4 && countOps(tr, "backfill") == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("trace %s in jaeger after 60s: %v; spans %v\n%s", traceID, err, opNames(tr), jg.Log())
		}
		time.Sleep(250 * time.Millisecond)
	}
	var root jaegertest.Span
	for _, s := range tr.Spans {
		if s.OperationName == "backfill" {
			root = s
		}
	}
	if root.Tag("strata.backfill") != launched.ID || root.Tag("strata.pipeline") != "days" || root.Parent() != "" {
		t.Fatalf("the backfill span: %+v", root)
	}
	var parts []string
	runSpans := map[string]jaegertest.Span{}
	for _, s := range tr.Spans {
		if s.OperationName != "run" {
			continue
		}
		if s.Parent() != root.SpanID || s.Tag("strata.backfill") != launched.ID {
			t.Fatalf("run span %+v is not a child of the backfill's", s)
		}
		parts = append(parts, s.Tag("strata.partition")+"="+s.Tag("strata.state"))
		runSpans[s.SpanID] = s
	}
	sort.Strings(parts)
	if got := strings.Join(parts, " "); got != "2024-01-01=succeeded 2024-01-02=succeeded 2024-01-03=failed 2024-01-04=succeeded" {
		t.Fatalf("run spans: %s", got)
	}
	for _, op := range []string{"kernel nums", "sql counted", "publish"} {
		n := 0
		for _, s := range tr.Spans {
			if s.OperationName == op {
				if _, ok := runSpans[s.Parent()]; !ok {
					t.Fatalf("%s span %+v is not under a run span", op, s)
				}
				n++
			}
		}
		want := 4
		if op != "kernel nums" {
			want = 3 // the failed day runs nothing below nums and publishes nothing
		}
		if n != want {
			t.Fatalf("%d %q spans, want %d: %v", n, op, want, opNames(tr))
		}
	}

	// The launching request has its own span, named by route.
	var httpTraces []jaegertest.Trace
	deadline = time.Now().Add(60 * time.Second)
	for {
		var err error
		httpTraces, err = jg.Traces("strata", "GET /api/v1/me")
		if err == nil && len(httpTraces) > 0 {
			if launches, _ := jg.Traces("strata", "POST /api/v1/backfills"); len(launches) > 0 {
				httpTraces = append(httpTraces, launches...)
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no HTTP spans in jaeger after 60s: %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	for _, x := range append(httpTraces, tr) {
		for _, leak := range []string{secret, token} {
			if strings.Contains(x.Raw, leak) {
				t.Fatalf("trace %s holds %q:\n%s", x.TraceID, leak, x.Raw)
			}
		}
	}
	for _, x := range httpTraces {
		for _, s := range x.Spans {
			if strings.HasPrefix(s.OperationName, "GET /api/v1/me") && (s.Tag("http.route") != "/api/v1/me" || s.Tag("http.response.status_code") != "200") {
				t.Fatalf("HTTP span: %+v", s)
			}
		}
	}

	// The JSON log's line about the failed run carries the same trace id,
	// and every line about the backfill or one of its runs names them and
	// the trace.
	srv.Stop(t)
	found := false
	for _, line := range strings.Split(srv.Stderr.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		if rec["backfill_id"] == launched.ID || rec["backfill"] == launched.ID || rec["run"] != nil || rec["run_id"] != nil {
			if rec["backfill_id"] != launched.ID || rec["trace_id"] != traceID {
				t.Fatalf("a log line about backfill %s without its backfill_id or trace_id %s: %s", launched.ID, traceID, line)
			}
			if rec["run"] != nil && rec["run_id"] != rec["run"] {
				t.Fatalf("a log line about a run without its run_id: %s", line)
			}
		}
		if rec["msg"] != "run failed" {
			continue
		}
		if rec["trace_id"] == traceID && rec["partition"] == "2024-01-03" && rec["run_id"] == runs[0].RunID {
			found = true
		}
	}
	if !found {
		t.Fatalf("no JSON log line \"run failed\" with trace_id %s and run_id %s:\n%s", traceID, runs[0].RunID, srv.Stderr)
	}
	if strings.Contains(srv.Stderr.String(), secret) {
		t.Fatalf("the log holds the secret:\n%s", srv.Stderr)
	}
}

func countOps(tr jaegertest.Trace, op string) int {
	n := 0
	for _, s := range tr.Spans {
		if s.OperationName == op {
			n++
		}
	}
	return n
}

func opNames(tr jaegertest.Trace) []string {
	var out []string
	for _, s := range tr.Spans {
		out = append(out, s.OperationName)
	}
	sort.Strings(out)
	return out
}

// writeTracedProject writes a project with one daily Go block that fails
// on 2024-01-03 with the secret api (STRATA_TEST_TRACE_SECRET) in its error.
func writeTracedProject(t *testing.T, dir string) {
	t.Helper()
	writeExtProject(t, dir, map[string]string{
		"strata.yaml": "name: traced\nsecrets:\n  api: {env: STRATA_TEST_TRACE_SECRET}\n",
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: nums
    product: traced_nums
  - id: counted
    upstream: [nums]
`,
		"blocks/counted.sql": "SELECT count(*) AS n FROM nums\n",
		"blocks/nums/nums.go": `package nums

import (
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	if ctx.Partition.Key == "2024-01-03" {
		key, err := ctx.Secret("api")
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("the API refused key %s", key)
	}
	t := sdk.NewTable(sdk.String("day"))
	t.Append(ctx.Partition.Key)
	return t, nil
}
`,
	})
}

// TestWorkerSpansJoinTheTrace: with a worker (--listen-workers, --no-local),
// the trace context crosses NATS in the task's headers: each partition's
// kernel call on the coordinator has the worker's "worker task" span as its
// child, exported by `strata worker --otlp-endpoint` into the same trace.
func TestWorkerSpansJoinTheTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts jaeger")
	}
	jg := jaegertest.Start(t)
	bin := strataproc.Binary(t)
	t.Setenv("STRATA_TEST_TRACE_SECRET", "s3cr3t-worker-5b2c")
	dir := filepath.Join(t.TempDir(), "traced")
	writeTracedProject(t, dir)
	natsAddr := "127.0.0.1:" + strconv.Itoa(freeTCPPort(t))
	const wtok = "worker-trace-token-1234"
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-trace", "--otlp-endpoint", jg.OTLP,
		"--listen-workers", natsAddr, "--nats-token", wtok, "--no-local")
	var wlog bytes.Buffer
	w := exec.Command(bin, "worker", "--nats", "nats://"+natsAddr, "--token", wtok, "--name", "w-traced", "--slots", "1",
		"--engine", "interp", "--otlp-endpoint", jg.OTLP)
	w.Stdout, w.Stderr = &wlog, &wlog
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Process.Kill(); _ = w.Wait() })

	var launched struct {
		ID string `json:"id"`
	}
	srv.Call(t, http.MethodPost, "/backfills", `{"pipeline": "days", "from": "2024-01-01", "to": "2024-01-02"}`, &launched)
	end := srv.WaitFor(t, launched.ID, func(p strataproc.Progress) bool { return p.State != "running" && p.State != "queued" })
	if end.Progress.Succeeded != 2 {
		t.Fatalf("the backfill: %+v\nworker:\n%s", end, wlog.String())
	}
	var list struct {
		Runs []struct {
			TraceID string `json:"trace_id"`
		} `json:"runs"`
	}
	srv.Call(t, http.MethodGet, "/runs?backfill="+url.QueryEscape(launched.ID), "", &list)
	if len(list.Runs) == 0 || list.Runs[0].TraceID == "" {
		t.Fatalf("runs of the backfill: %+v", list)
	}
	// The worker sends its spans in batches: stop it so that it flushes.
	_ = w.Process.Signal(syscall.SIGTERM)
	_ = w.Wait()
	deadline := time.Now().Add(60 * time.Second)
	for {
		tr, err := jg.Trace(list.Runs[0].TraceID)
		kernels := map[string]bool{}
		for _, s := range tr.Spans {
			if s.OperationName == "kernel nums" {
				kernels[s.SpanID] = true
			}
		}
		joined := 0
		for _, s := range tr.Spans {
			if s.OperationName == "worker task" && kernels[s.Parent()] && s.Tag("strata.worker") == "w-traced" {
				joined++
			}
		}
		if err == nil && joined == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60s, %d worker spans under the kernel calls of trace %s (%v): %v\nworker:\n%s", joined, list.Runs[0].TraceID, err, opNames(tr), wlog.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	srv.Stop(t)
}
