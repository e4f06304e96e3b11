package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/warehouse"
)

// Run with:
//
//	go test -run '^$' -bench . -benchtime 2s ./server/
//	STRATA_BENCH_WS_DURATION=30s go test -run '^$' -bench WSConcurrent ./server/
//
// Each benchmark uses b.Loop, so its setup (a server, kernels, fixtures)
// runs once.

// BenchmarkWSExecuteTrivial: one editor session, a trivial Go block sent
// over the websocket, from the execute message to the result with its
// preview. Targets p50 <= 5 ms, p99 <= 20 ms.
func BenchmarkWSExecuteTrivial(b *testing.B) {
	e := newEnv(b)
	c := e.connect()
	c.hello("bench")
	for i := 0; i < 5; i++ { // a warm kernel and warm program cache
		if m, _ := c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second); m.Type != MsgResult {
			b.Fatal(m.Error)
		}
	}
	lat := make([]time.Duration, 0, 1024)
	for b.Loop() {
		start := time.Now()
		m, _ := c.execute("raw_orders", trivialSource, "2024-03-10", 30*time.Second)
		lat = append(lat, time.Since(start))
		if m.Type != MsgResult || m.Preview == nil {
			b.Fatal(m.Error)
		}
	}
	reportLatency(b, lat)
}

// wsBenchDuration is how long BenchmarkWSConcurrentSessions keeps its
// sessions busy: short by default, 30s for the bench report.
func wsBenchDuration(b *testing.B) time.Duration {
	if v := os.Getenv("STRATA_BENCH_WS_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("STRATA_BENCH_WS_DURATION=%q: %v", v, err)
		}
		return d
	}
	return 3 * time.Second
}

// BenchmarkWSConcurrentSessions: 50 editor sessions (50 connections, 50
// kernels) executing a trivial block in a loop for wsBenchDuration.
// Reports throughput, p99 latency and errors (any reply but a result).
func BenchmarkWSConcurrentSessions(b *testing.B) {
	const sessions = 50
	d := wsBenchDuration(b)
	e := newEnv(b)
	clients := make([]*wsClient, sessions)
	for i := range clients {
		clients[i] = e.connect()
		clients[i].hello(fmt.Sprintf("bench-%d", i))
	}
	// Warm every kernel before measuring (they start in the background on hello).
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = benchExecute(c, "warm", 60*time.Second)
		}()
	}
	wg.Wait()

	var (
		mu     sync.Mutex
		lat    []time.Duration
		errs   int
		execs  int
		window time.Duration
	)
	for b.Loop() {
		deadline := time.Now().Add(d)
		start := time.Now()
		for i, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				bad := 0
				for n := 0; time.Now().Before(deadline); n++ {
					t0 := time.Now()
					ok, err := benchExecute(c, fmt.Sprintf("s%d-%d", i, n), 30*time.Second)
					if err != nil {
						bad++
						break
					}
					if !ok {
						bad++
						continue
					}
					mine = append(mine, time.Since(t0))
				}
				mu.Lock()
				lat = append(lat, mine...)
				execs += len(mine)
				errs += bad
				mu.Unlock()
			}()
		}
		wg.Wait()
		window += time.Since(start)
	}
	b.ReportMetric(float64(execs)/window.Seconds(), "execs/s")
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		b.ReportMetric(ms(lat[int(0.99*float64(len(lat)-1))]), "p99-ms")
	}
	b.ReportMetric(float64(errs), "errors")
}

// benchExecute runs the trivial block without failing from a goroutine:
// ok reports a result, err a broken connection or a timeout.
func benchExecute(c *wsClient, id string, timeout time.Duration) (bool, error) {
	if err := c.conn.WriteJSON(ClientMessage{Type: MsgExecute, ID: id, Pipeline: "clv", Block: "raw_orders", Source: trivialSource, Partition: "2024-03-10"}); err != nil {
		return false, err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case m, open := <-c.in:
			if !open {
				return false, errors.New("connection closed")
			}
			if m.ID == id && (m.Type == MsgResult || m.Type == MsgError) {
				return m.Type == MsgResult, nil
			}
		case <-t.C:
			return false, errors.New("timeout")
		}
	}
}

// BenchmarkPreviewEndpoint: GET /products/daily_customer_metrics/preview
// for one random partition (limit 100) of a product holding five years of
// daily partitions (1,827 x 300 rows), over HTTP with auth. Target p50 <= 20 ms.
func BenchmarkPreviewEndpoint(b *testing.B) {
	e := newEnv(b)
	keys := publishFiveYears(b, e)
	rng := rand.New(rand.NewSource(1))
	lat := make([]time.Duration, 0, 1024)
	for b.Loop() {
		key := keys[rng.Intn(len(keys))]
		start := time.Now()
		resp, data := e.request(http.MethodGet, "/api/v1/products/daily_customer_metrics/preview?partition="+key+"&limit=100", nil)
		lat = append(lat, time.Since(start))
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%d %s", resp.StatusCode, data)
		}
	}
	reportLatency(b, lat)
}

// publishFiveYears writes 2020-01-01..2024-12-31 of the demo's
// daily_customer_metrics product straight through warehouse.Publish, in
// batches of a few hundred partitions per transaction, instead of running
// the pipeline 1,827 times.
func publishFiveYears(b *testing.B, e *env) []string {
	b.Helper()
	pl, err := e.eng.Pipeline("clv")
	if err != nil {
		b.Fatal(err)
	}
	spec, err := engine.SpecOf(pl.Block("daily_customer_metrics").Partitions)
	if err != nil {
		b.Fatal(err)
	}
	parts, err := spec.Range("2020-01-01", "2024-12-31")
	if err != nil {
		b.Fatal(err)
	}
	var keys []string
	var batch []warehouse.Output
	flush := func() {
		if _, err := e.wh.Publish(context.Background(), batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i, p := range parts {
		t := sdk.NewTable(sdk.Int64("customer_id"), sdk.Int64("orders"), sdk.Float64("revenue"), sdk.Float64("avg_order_value"),
			sdk.Bool("subscriber"), sdk.Time("first_order_at"), sdk.Time("last_order_at"), sdk.String("day"))
		for r := 0; r < 300; r++ {
			at := p.Start.Add(time.Duration(r) * time.Minute)
			t.Append(int64(r*7+i%7), int64(1+r%3), float64(r)*1.5, 1.5, r%5 == 0, at, at, p.Key)
		}
		batch = append(batch, warehouse.Output{Product: "daily_customer_metrics", Partition: p.Key, PartitionStart: p.Start,
			PartitionEnd: p.End, Table: t, RunID: "bench", CodeHash: "bench"})
		keys = append(keys, p.Key)
		if len(batch) == 300 {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
	return keys
}

func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return ms(lat[int(q*float64(len(lat)-1))]) }
	b.ReportMetric(p(0.50), "p50-ms")
	b.ReportMetric(p(0.99), "p99-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
