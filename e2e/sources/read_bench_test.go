package sources

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/demo"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// readBenchRows is the size of the Postgres table the read benchmark loads.
const readBenchRows = 1_000_000

// readBenchGo loads the whole table into a product with pgx (compiled),
// through sdk.FromPgxRows.
const readBenchGo = `package orders

import (
	"github.com/jackc/pgx/v5"
	"github.com/stratahq/strata/blocks/sdk"
)

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	dsn, err := ctx.Secret("pg")
	if err != nil {
		return nil, err
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT id, customer_id, amount, created_at, note FROM orders")
	if err != nil {
		return nil, err
	}
	return sdk.FromPgxRows(rows)
}
`

// BenchmarkReadPostgres1M: rows/s loading a 1M-row Postgres table (bigint,
// int, numeric(12,2), timestamptz, text) into a product through the real
// binary (strata run: the block, then the publish into the warehouse),
// with a Go block using pgx (compiled) and with a SQL block that ATTACHes
// the database, against psql's COPY … TO STDOUT of the same table (to
// /dev/null) as the baseline, measured in the same run. Each strata run is
// the second of two (the first builds the compiled block and warms the
// caches); the reported figure is the run's duration as strata records it.
func BenchmarkReadPostgres1M(b *testing.B) {
	if testing.Short() {
		b.Skip("loads a 1M-row Postgres table through the real binary")
	}
	if _, err := exec.LookPath("go"); err != nil {
		b.Skip(err)
	}
	exttest.Require(b, "postgres")
	pg := pgtest.Start(b)
	pg.Psql(b, fmt.Sprintf(`CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int, amount numeric(12,2), created_at timestamptz, note text);
		INSERT INTO orders SELECT i, i %% 5000, (i %% 100000) / 100.0, timestamptz '2024-01-01 00:00Z' + i * interval '1 second', 'order ' || i
		FROM generate_series(1, %d) i; ANALYZE orders`, readBenchRows))
	bin := strataproc.Binary(b)
	dir := filepath.Join(b.TempDir(), "read")
	if o, code := strataproc.Run(b, bin, "init", dir); code != 0 {
		b.Fatal(o)
	}
	gomod, err := demo.Shop.ReadFile("shop/go.mod.tmpl")
	if err != nil {
		b.Fatal(err)
	}
	gosum, err := demo.Shop.ReadFile("shop/go.sum.tmpl")
	if err != nil {
		b.Fatal(err)
	}
	writeExtProject(b, dir, map[string]string{
		"go.mod":                  strings.Replace(string(gomod), "module shop", "module read", 1),
		"go.sum":                  string(gosum),
		"strata.yaml":             "name: read\nextensions: [postgres]\nsecrets:\n  pg: {env: READ_PG}\n",
		"pipelines/go_read.yaml":  "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: orders\n",
		"blocks/orders/orders.go": readBenchGo,
		"pipelines/sql_read.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: orders_sql\n",
		"blocks/orders_sql.sql": "ATTACH '" + pg.ConnString() + "' AS src (TYPE postgres, READ_ONLY);\n" +
			"SELECT id, customer_id, amount, created_at, note FROM src.public.orders\n",
	})
	env := []string{"READ_PG=" + pg.DSN()}
	if o, code := strataCmd(b, bin, nil, "mod", "download", dir); code != 0 {
		b.Fatal(o)
	}
	run := func(pipeline, engine string) time.Duration {
		b.Helper()
		args := []string{"run", dir, pipeline, "--partition", "2024-01-01", "--format", "json"}
		if engine != "" {
			args = append(args, "--engine", engine)
		}
		out, code := strataCmd(b, bin, env, args...)
		var res struct {
			State      string  `json:"state"`
			Engine     string  `json:"engine"`
			DurationMS float64 `json:"duration_ms"`
			Versions   []struct {
				Rows int `json:"rows"`
			} `json:"versions"`
		}
		if code != 0 || json.Unmarshal([]byte(out[strings.IndexByte(out, '{'):]), &res) != nil || res.State != "succeeded" {
			b.Fatalf("strata run %s: exit %d\n%s", pipeline, code, out)
		}
		if len(res.Versions) != 1 || res.Versions[0].Rows != readBenchRows {
			b.Fatalf("strata run %s published %+v, want one version of %d rows", pipeline, res.Versions, readBenchRows)
		}
		if engine != "" && res.Engine != engine {
			b.Fatalf("strata run %s ran %s, want %s", pipeline, res.Engine, engine)
		}
		return time.Duration(res.DurationMS * float64(time.Millisecond))
	}
	copyOut := func() time.Duration {
		b.Helper()
		cmd := exec.Command(filepath.Join(pgtest.BinDir(), "psql"), "-X", "-q", "-d", pg.DSN(), "-c", "COPY orders TO STDOUT")
		cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("psql COPY TO STDOUT: %v", err)
		}
		return time.Since(start)
	}
	run("go_read", "compiled") // builds the block
	run("sql_read", "")
	copyOut()
	var goD, sqlD, copyD time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		goD += run("go_read", "compiled")
		sqlD += run("sql_read", "")
		copyD += copyOut()
	}
	b.StopTimer()
	rate := func(d time.Duration) float64 { return float64(readBenchRows*b.N) / d.Seconds() }
	b.ReportMetric(rate(goD), "pgx_rows/s")
	b.ReportMetric(rate(sqlD), "attach_rows/s")
	b.ReportMetric(rate(copyD), "copy_rows/s")
	b.ReportMetric(rate(goD)/rate(copyD), "pgx/copy")
	b.ReportMetric(rate(sqlD)/rate(copyD), "attach/copy")
}
