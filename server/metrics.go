package server

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"

	"github.com/stratahq/strata/projects/engine"
)

// runBuckets are the upper bounds, in seconds, of the run duration
// histogram: from an editor-sized run to a slow partition of a backfill.
var runBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900}

// metrics counts what /metrics reports. Engine-side numbers come from the
// engine hub (state and progress notices), so the engine needs no knowledge
// of Prometheus; gauges of the pool and sessions are read at scrape time.
// The text format is written by hand: a dozen series do not need a client
// library.
type metrics struct {
	sub  *engine.Subscription
	done chan struct{}

	mu        sync.Mutex
	blockRuns map[engine.State]int64     // finished block runs by final state
	runCounts []int64                    // per bucket, not cumulative; last is +Inf
	runSum    float64                    // seconds
	runCount  int64                      //
	execs     map[string]int64           // editor executions by outcome: ok, error, busy
	backfills map[string]engine.Progress // latest progress per backfill seen in this process
	wsConns   atomic.Int64
}

func newMetrics(hub *engine.Hub) *metrics {
	m := &metrics{
		blockRuns: map[engine.State]int64{}, runCounts: make([]int64, len(runBuckets)+1),
		execs: map[string]int64{}, backfills: map[string]engine.Progress{}, done: make(chan struct{}),
	}
	m.sub = hub.Subscribe(4096, func(n engine.Notice) bool { return n.Kind == "state" || n.Kind == "progress" })
	go m.follow()
	return m
}

func (m *metrics) follow() {
	defer close(m.done)
	for n := range m.sub.C {
		m.observe(n)
	}
}

func (m *metrics) close() {
	m.sub.Close()
	<-m.done
}

func (m *metrics) observe(n engine.Notice) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case n.Progress != nil:
		m.backfills[n.Progress.BackfillID] = *n.Progress
	case n.Event != nil && n.Event.State.Final():
		ev := n.Event
		if ev.Block != "" {
			m.blockRuns[ev.State]++
			return
		}
		secs := ev.DurationMS / 1000
		i := sort.SearchFloat64s(runBuckets, secs)
		m.runCounts[i]++
		m.runSum += secs
		m.runCount++
	}
}

func (m *metrics) exec(outcome string) {
	m.mu.Lock()
	m.execs[outcome]++
	m.mu.Unlock()
}

// serveMetrics is GET /metrics in the Prometheus text format. It needs the
// token like the API: series carry pipeline and backfill ids, and a
// Prometheus scrape job sends a bearer token easily.
func (s *Server) serveMetrics(c echo.Context) error {
	var b strings.Builder
	s.writeMetrics(&b)
	return c.Blob(http.StatusOK, "text/plain; version=0.0.4; charset=utf-8", []byte(b.String()))
}

func (s *Server) writeMetrics(w io.Writer) {
	m := s.metrics
	m.mu.Lock()
	blockRuns := make(map[engine.State]int64, len(m.blockRuns))
	for k, v := range m.blockRuns {
		blockRuns[k] = v
	}
	runCounts := append([]int64(nil), m.runCounts...)
	runSum, runCount := m.runSum, m.runCount
	execs := make(map[string]int64, len(m.execs))
	for k, v := range m.execs {
		execs[k] = v
	}
	backfills := make(map[string]engine.Progress, len(m.backfills))
	for k, v := range m.backfills {
		backfills[k] = v
	}
	m.mu.Unlock()

	header(w, "strata_block_runs_total", "counter", "Block runs (dynamic children included) that finished, by final state.")
	for _, st := range []engine.State{engine.StateSucceeded, engine.StateFailed, engine.StateSkipped, engine.StateCancelled} {
		fmt.Fprintf(w, "strata_block_runs_total{state=%q} %d\n", st, blockRuns[st])
	}

	header(w, "strata_run_duration_seconds", "histogram", "Duration of pipeline runs of one partition.")
	var cum int64
	for i, le := range runBuckets {
		cum += runCounts[i]
		fmt.Fprintf(w, "strata_run_duration_seconds_bucket{le=%q} %d\n", formatFloat(le), cum)
	}
	cum += runCounts[len(runBuckets)]
	fmt.Fprintf(w, "strata_run_duration_seconds_bucket{le=\"+Inf\"} %d\n", cum)
	fmt.Fprintf(w, "strata_run_duration_seconds_sum %s\n", formatFloat(runSum))
	fmt.Fprintf(w, "strata_run_duration_seconds_count %d\n", runCount)

	if p := s.cfg.Pool; p != nil {
		running, idle := p.Stats()
		header(w, "strata_kernel_pool_size", "gauge", "Cap of the kernel pool: the most block runs at once.")
		fmt.Fprintf(w, "strata_kernel_pool_size %d\n", p.Size())
		header(w, "strata_kernel_pool_running", "gauge", "Kernel processes of the pool that are started.")
		fmt.Fprintf(w, "strata_kernel_pool_running %d\n", running)
		header(w, "strata_kernel_pool_idle", "gauge", "Started kernels of the pool waiting for work.")
		fmt.Fprintf(w, "strata_kernel_pool_idle %d\n", idle)
	}

	busy, idle, connected := s.sessions.Stats()
	header(w, "strata_editor_sessions", "gauge", "Editor sessions (one kernel each), by state.")
	fmt.Fprintf(w, "strata_editor_sessions{state=\"busy\"} %d\n", busy)
	fmt.Fprintf(w, "strata_editor_sessions{state=\"idle\"} %d\n", idle)
	header(w, "strata_editor_sessions_connected", "gauge", "Editor sessions with a websocket attached.")
	fmt.Fprintf(w, "strata_editor_sessions_connected %d\n", connected)
	header(w, "strata_editor_executions_total", "counter", "Editor executions, by outcome (busy: refused while another ran).")
	for _, o := range []string{"ok", "error", "busy"} {
		fmt.Fprintf(w, "strata_editor_executions_total{outcome=%q} %d\n", o, execs[o])
	}
	header(w, "strata_websocket_connections", "gauge", "Open websocket connections.")
	fmt.Fprintf(w, "strata_websocket_connections %d\n", m.wsConns.Load())

	header(w, "strata_backfill_partitions", "gauge", "Partitions of each backfill seen running in this process, by state.")
	ids := make([]string, 0, len(backfills))
	for id := range backfills {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		p := backfills[id]
		for _, kv := range []struct {
			state string
			n     int
		}{{"total", p.Total}, {"done", p.Done}, {"succeeded", p.Succeeded}, {"failed", p.Failed},
			{"running", p.Running}, {"skipped", p.Skipped}, {"cancelled", p.Cancelled}} {
			fmt.Fprintf(w, "strata_backfill_partitions{backfill=%q,state=%q} %d\n", id, kv.state, kv.n)
		}
	}
	header(w, "strata_backfill_rate_per_minute", "gauge", "Recent partitions finished per minute of each backfill.")
	for _, id := range ids {
		fmt.Fprintf(w, "strata_backfill_rate_per_minute{backfill=%q} %s\n", id, formatFloat(backfills[id].Rate))
	}
}

func header(w io.Writer, name, typ, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
