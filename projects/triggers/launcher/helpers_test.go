package launcher

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/triggers"
	"github.com/stratahq/strata/projects/warehouse"
)

func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	os.Exit(m.Run())
}

// env is a real project folder, warehouse (DuckDB file) and engine; the
// blocks are SQL, so runs need no kernel process.
type env struct {
	t    *testing.T
	dir  string
	wh   *warehouse.Warehouse
	pool *supervisor.Pool
	eng  *engine.Engine
}

func newEnv(t *testing.T, clock Clock, files map[string]string) *env {
	t.Helper()
	dir := t.TempDir()
	files["strata.yaml"] = "name: t\ntimezone: UTC\n"
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proj, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".strata"), 0o755); err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(context.Background(), filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pool := supervisor.NewPool(kerneltest.Config(), 2)
	eng, err := engine.New(context.Background(), proj, wh, pool, engine.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, dir: dir, wh: wh, pool: pool, eng: eng}
	t.Cleanup(func() {
		eng.Shutdown(context.Background())
		eng.Close()
		pool.Close()
		if err := wh.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

func (e *env) loop(clock Clock) *Loop {
	e.t.Helper()
	l, err := New(context.Background(), Config{Engine: e.eng, Warehouse: e.wh, Clock: clock, Quiet: 50 * time.Millisecond, MaxWait: 100 * time.Millisecond})
	if err != nil {
		e.t.Fatal(err)
	}
	return l
}

// step runs one loop step and waits for the work it queued to end.
func (e *env) step(l *Loop) {
	e.t.Helper()
	if err := l.Step(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.idle(l)
}

// idle waits until every queued tick of l has been launched and has ended.
func (e *env) idle(l *Loop) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		busy := false
		for _, q := range l.queues {
			busy = busy || q.busy || len(q.pending) > 0
		}
		l.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatal("trigger work did not end within 30s")
}

// versions lists product partitions with their current version: "2024-03-08:v1".
func (e *env) versions(product string) []string {
	e.t.Helper()
	rows, err := e.wh.DB().Query(`SELECT partition, version FROM _strata.current WHERE product = ? ORDER BY partition`, product)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		var v int
		if err := rows.Scan(&p, &v); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, p+":v"+itoa(v))
	}
	return out
}

func itoa(v int) string { return strconv.Itoa(v) }

// triggerRuns lists the partitions of runs whose origin is the trigger, with the origin's tick or upstream.
func (e *env) triggerRuns(pipeline, trigger string) []engine.RunSummary {
	e.t.Helper()
	runs, err := e.eng.Runs(context.Background(), engine.RunFilter{Pipeline: pipeline, Origin: "trigger:" + trigger, Limit: 1000})
	if err != nil {
		e.t.Fatal(err)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].StartedAt.Before(runs[j].StartedAt) })
	return runs
}

func partitionsOf(runs []engine.RunSummary) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Partition)
	}
	return out
}

func eq(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func planOf(tick time.Time) triggers.Plan { return triggers.Plan{Run: []time.Time{tick}} }
