package envs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	os.Exit(m.Run())
}

const pipelineYAML = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: src
    product: orders
  - id: metrics
    upstream: [src]
    product: metrics
    key: [day]
checks:
  - name: rows_kept
    product: metrics
    max_row_loss_percent: 10
`

const metricsSQL = "SELECT day, sum(amount) AS total FROM src GROUP BY day\n"

// fixture is a real project folder, warehouse (retention 1, so that what
// an environment points at survives only because it is protected) and
// engine; the blocks are SQL, so runs need no kernel process.
type fixture struct {
	t   *testing.T
	dir string
	wh  *warehouse.Warehouse
	eng *engine.Engine
	s   *Store
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"strata.yaml":        "name: t\ntimezone: UTC\n",
		"pipelines/p.yaml":   pipelineYAML,
		"blocks/src.sql":     "SELECT $partition_key AS day, range AS id, range * 10 AS amount FROM range(3)\n",
		"blocks/metrics.sql": metricsSQL,
	}
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
	ctx := context.Background()
	opts := warehouse.Options{Retention: 1}
	if os.Getenv("STRATA_TEST_WAREHOUSE") == "ducklake" { // the same tests over a DuckLake
		opts.Lake = &warehouse.LakeOptions{Catalog: filepath.Join(dir, "catalog.ducklake"), DataPath: filepath.Join(dir, "lake")}
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Lake != nil {
		if _, err := os.Stat(opts.Lake.Catalog); err != nil {
			t.Fatalf("the warehouse is not on the DuckLake: %v", err)
		}
	}
	pool := supervisor.NewPool(kerneltest.Config(), 2)
	eng, err := engine.New(ctx, proj, wh, pool, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		eng.Shutdown(ctx)
		eng.Close()
		pool.Close()
		if err := wh.Close(); err != nil {
			t.Error(err)
		}
	})
	return &fixture{t: t, dir: dir, wh: wh, eng: eng, s: New(wh, eng)}
}

func (f *fixture) write(path, content string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, path), []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// backfill runs days 2024-01-01..03 of p, into owner's environment when
// owner is set, and waits for its end.
func (f *fixture) backfill(into string) *engine.BackfillStatus {
	f.t.Helper()
	ctx := context.Background()
	st, err := f.eng.Launch(ctx, engine.BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-03", Reprocess: engine.ReprocessAll, Into: into})
	if err != nil {
		f.t.Fatal(err)
	}
	if st, err = f.eng.Wait(ctx, st.ID); err != nil {
		f.t.Fatal(err)
	}
	if st.State != engine.StateSucceeded {
		f.t.Fatalf("backfill %s: %s %s", st.ID, st.State, st.Message)
	}
	return st
}

// query returns the first column of every row of q, joined by commas.
func (f *fixture) query(q string) string {
	f.t.Helper()
	rows, err := f.wh.DB().Query(q)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// productRows counts every stored row of every product version.
func (f *fixture) productRows() string {
	f.t.Helper()
	tables := strings.Split(f.query(`SELECT table_name FROM _strata.storage ORDER BY 1`), ",")
	var parts []string
	for _, t := range tables {
		parts = append(parts, `SELECT count(*) AS n FROM _strata."`+t+`"`)
	}
	return f.query(`SELECT sum(n)::VARCHAR FROM (` + strings.Join(parts, " UNION ALL ") + `)`)
}

const totals = `SELECT day || '=' || total::VARCHAR FROM %s.metrics ORDER BY day`

func (f *fixture) totals(schema string) string {
	return f.query(strings.Replace(totals, "%s", schema, 1))
}

// TestEnvironmentLifecycle: an environment costs no row until it changes
// something; a backfill into it leaves prod's pointers and values alone
// while dev.metrics shows the change; its diff is the review diff; the
// promote switches it into prod; retention keeps what it points at; a
// discard drops its own versions.
func TestEnvironmentLifecycle(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.backfill("")
	prod := f.totals("main")
	if prod != "2024-01-01=30,2024-01-02=30,2024-01-03=30" {
		t.Fatalf("prod totals: %s", prod)
	}
	rows := f.productRows()
	env, err := f.s.Create(ctx, "dev", CreateOptions{Actor: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	if env.Partitions != 0 || env.Rows != 0 {
		t.Fatalf("a new environment holds %+v", env)
	}
	if got := f.productRows(); got != rows {
		t.Fatalf("creating an environment changed the stored product rows: %s, was %s", got, rows)
	}
	if n := f.query(`SELECT count(*)::VARCHAR FROM _strata.pins WHERE owner = 'env:dev'`); n != "0" {
		t.Fatalf("a new environment holds %s pointers", n)
	}
	if got := f.totals("dev"); got != prod {
		t.Fatalf("dev.metrics before any change: %s, want prod's %s", got, prod)
	}
	if _, err := f.s.Create(ctx, "dev", CreateOptions{Actor: "ana"}); !errors.Is(err, ErrExists) {
		t.Fatalf("second create: %v", err)
	}
	for _, bad := range []string{"prod", "Dev", "main", "1x", ""} {
		if _, err := f.s.Create(ctx, bad, CreateOptions{}); err == nil {
			t.Fatalf("create %q: no error", bad)
		}
	}

	f.write("blocks/metrics.sql", "SELECT day, sum(amount) * 2 AS total FROM src GROUP BY day\n")
	prodPointers := f.query(`SELECT product || ':' || partition || ':' || version FROM _strata.current ORDER BY 1`)
	f.backfill(Owner("dev"))
	if got := f.query(`SELECT product || ':' || partition || ':' || version FROM _strata.current ORDER BY 1`); got != prodPointers {
		t.Fatalf("a backfill into dev moved prod's pointers:\n%s\nwas\n%s", got, prodPointers)
	}
	if got := f.totals("main"); got != prod {
		t.Fatalf("prod totals after the dev backfill: %s", got)
	}
	if got := f.totals("dev"); got != "2024-01-01=60,2024-01-02=60,2024-01-03=60" {
		t.Fatalf("dev totals: %s", got)
	}
	// orders recomputed the same rows as prod's: dev holds no copy of
	// them, only metrics' three changed partitions.
	if env, err = f.s.Get(ctx, "dev"); err != nil || env.Partitions != 3 || env.Products != 1 {
		t.Fatalf("dev after its backfill: %+v %v", env, err)
	}
	if got, want := f.productRows(), rows; got == want {
		t.Fatalf("dev's changed metrics stored no rows: %s", got)
	}
	if n := f.query(`SELECT count(*)::VARCHAR FROM _strata.pins WHERE owner = 'env:dev' AND product = 'orders'`); n != "0" {
		t.Fatalf("dev pins %s versions of orders, identical to prod's", n)
	}
	// dev's metrics read orders in memory in its run: its lineage names
	// prod's version, the one reused, not "this run's" (which is none).
	lineage := f.query(`SELECT string_agg(json_extract(v.upstream, '$.orders."2024-01-02"')::VARCHAR || '=' || c.version::VARCHAR, ',')
		FROM _strata.pins p JOIN _strata.versions v ON v.product = p.product AND v.partition = p.partition AND v.version = p.version
		JOIN _strata.current c ON c.product = 'orders' AND c.partition = '2024-01-02'
		WHERE p.owner = 'env:dev' AND p.product = 'metrics' AND p.partition = '2024-01-02'`)
	if parts := strings.Split(lineage, "="); len(parts) != 2 || parts[0] != parts[1] || parts[0] == "0" {
		t.Fatalf("dev's metrics 2024-01-02 read orders version %q, want prod's current one", lineage)
	}
	// Previews read the environment the same way.
	tb, total, err := f.s.Read(ctx, "dev", "metrics", warehouse.Selection{Partitions: []string{"2024-01-02"}}, 10)
	if err != nil || total != 1 || tb.Row(0)[2] != 60.0 && tb.Row(0)[2] != int64(60) {
		t.Fatalf("dev preview: %v %d %v", tb.Row(0), total, err)
	}

	d, err := f.s.Diff(ctx, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pipelines) != 1 || len(d.Pipelines[0].Products) != 1 || !d.GatesPassed {
		t.Fatalf("diff: %+v", d)
	}
	for _, p := range d.Pipelines[0].Products {
		want := map[string][2]int{"metrics": {3, 0}}[p.Product]
		if p.Changed != want[0] || p.Unchanged != want[1] {
			t.Fatalf("%s: changed %d unchanged %d, want %v", p.Product, p.Changed, p.Unchanged, want)
		}
	}
	pd, err := f.s.PartitionDiff(ctx, "dev", engine.PartitionDiffOptions{Product: "metrics", Partition: "2024-01-02", Rows: 5})
	if err != nil || pd.Counts.Changed != 1 {
		t.Fatalf("partition diff: %+v %v", pd, err)
	}

	res, err := f.s.Promote(ctx, "dev", false, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Partitions["metrics"] != 3 {
		t.Fatalf("promote: %+v", res)
	}
	if got := f.totals("main"); got != "2024-01-01=60,2024-01-02=60,2024-01-03=60" {
		t.Fatalf("prod after the promote: %s", got)
	}
	if env, _ = f.s.Get(ctx, "dev"); env.Partitions != 0 {
		t.Fatalf("dev still holds %d pointers after its promote", env.Partitions)
	}
	if _, err := f.s.Promote(ctx, "dev", false, f.dir); err == nil || !strings.Contains(err.Error(), "changes nothing") {
		t.Fatalf("second promote: %v", err)
	}
	// The promote is undone as a whole, and only once.
	batch, n, err := f.s.Rollback(ctx, "dev", "")
	if err != nil || batch != res.Batch || n != len(res.Versions) {
		t.Fatalf("rollback: %s %d %v (promote batch %s)", batch, n, err, res.Batch)
	}
	if got := f.totals("main"); got != prod {
		t.Fatalf("prod after the rollback: %s, want %s", got, prod)
	}
	if _, _, err := f.s.Rollback(ctx, "dev", ""); err == nil || !strings.Contains(err.Error(), "no promote to roll back") {
		t.Fatalf("second rollback: %v", err)
	}
	if _, _, err := f.s.Rollback(ctx, "dev", "bf_123"); err == nil || !strings.Contains(err.Error(), "not a promote of environment dev") {
		t.Fatalf("rollback of another batch: %v", err)
	}
	if _, err := f.s.Discard(ctx, "dev"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.Get(ctx, "dev"); !IsNotFound(err) {
		t.Fatalf("dev after discard: %v", err)
	}
}

// TestEnvironmentPromoteConflict: prod rewrites a partition after dev built
// its version of it; the promote is refused, names that partition, and
// switches nothing. Retention (one version) keeps dev's versions all along.
func TestEnvironmentPromoteConflict(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.backfill("")
	if _, err := f.s.Create(ctx, "dev", CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.write("blocks/metrics.sql", "SELECT day, sum(amount) * 2 AS total FROM src GROUP BY day\n")
	// One partition by a single run into dev, the rest by a backfill.
	opt := engine.RunOptions{}
	RunInto(&opt, Owner("dev"))
	if res, err := f.eng.Run(ctx, "p", "2024-01-02", opt); err != nil || res.State != engine.StateSucceeded {
		t.Fatalf("run into dev: %+v %v", res, err)
	}
	if got := f.totals("dev"); got != "2024-01-01=30,2024-01-02=60,2024-01-03=30" {
		t.Fatalf("dev after one run: %s", got)
	}
	f.write("blocks/metrics.sql", "SELECT day, sum(amount) + 1 AS total FROM src GROUP BY day\n")
	// Prod rewrites 2024-01-02 twice: with retention 1 the version dev was
	// built against goes, and dev's own must stay.
	for range 2 {
		if res, err := f.eng.Run(ctx, "p", "2024-01-02", engine.RunOptions{}); err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("prod run: %+v %v", res, err)
		}
	}
	if got := f.totals("dev"); got != "2024-01-01=30,2024-01-02=60,2024-01-03=30" {
		t.Fatalf("dev after prod rewrote its partition: %s", got)
	}
	before := f.totals("main")
	_, err := f.s.Promote(ctx, "dev", false, f.dir)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("promote over a prod rewrite: %v", err)
	}
	var named []string
	for _, c := range ce.Conflicts {
		named = append(named, c.Product+" "+c.Partition)
	}
	if strings.Join(named, ",") != "metrics 2024-01-02" || !strings.Contains(err.Error(), "metrics 2024-01-02") {
		t.Fatalf("conflicts named %v: %v", named, err)
	}
	if got := f.totals("main"); got != before {
		t.Fatalf("a refused promote changed prod: %s, was %s", got, before)
	}
	n, err := f.s.Discard(ctx, "dev")
	if err != nil || n != 1 {
		t.Fatalf("discard: %d %v", n, err)
	}
	if got := f.query(`SELECT count(*)::VARCHAR FROM duckdb_views() WHERE schema_name = 'dev'`); got != "0" {
		t.Fatalf("dev views left after discard: %s", got)
	}
}

// TestEnvironmentRebuildReleasesItsOlderVersion: a partition rebuilt in dev
// with other code points at the newest version only; the older one is no
// longer pinned, so retention may drop it, and dev reads the newest.
func TestEnvironmentRebuildReleasesItsOlderVersion(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.backfill("")
	if _, err := f.s.Create(ctx, "dev", CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, factor := range []string{"2", "3"} {
		f.write("blocks/metrics.sql", "SELECT day, sum(amount) * "+factor+" AS total FROM src GROUP BY day\n")
		opt := engine.RunOptions{}
		RunInto(&opt, Owner("dev"))
		if res, err := f.eng.Run(ctx, "p", "2024-01-02", opt); err != nil || res.State != engine.StateSucceeded {
			t.Fatalf("run into dev: %+v %v", res, err)
		}
	}
	if got := f.totals("dev"); got != "2024-01-01=30,2024-01-02=90,2024-01-03=30" {
		t.Fatalf("dev after two rebuilds: %s", got)
	}
	pins := f.query(`SELECT string_agg(version::VARCHAR, ',') FROM _strata.pins WHERE owner = 'env:dev' AND product = 'metrics' AND partition = '2024-01-02'`)
	newest := f.query(`SELECT max(version)::VARCHAR FROM _strata.versions WHERE product = 'metrics' AND partition = '2024-01-02'`)
	if pins != newest {
		t.Fatalf("dev pins versions %s of metrics 2024-01-02, want only the newest, %s", pins, newest)
	}
	if env, err := f.s.Get(ctx, "dev"); err != nil || env.Partitions != 1 {
		t.Fatalf("dev after two rebuilds: %+v %v", env, err)
	}
}
