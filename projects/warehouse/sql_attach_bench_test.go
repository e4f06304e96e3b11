package warehouse

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// BenchmarkPostgresSource reads a 1M-row Postgres table: into a SQL
// block's output through ATTACH (what a source block costs), against
// psql's COPY … TO STDOUT of the same table (the floor: Postgres sending
// the rows, nothing built from them).
func BenchmarkPostgresSource(b *testing.B) {
	exttest.Require(b, "postgres")
	pg := pgtest.Start(b)
	const rows = 1_000_000
	pg.Psql(b, `CREATE TABLE orders AS SELECT i AS id, 'c' || (i % 1000) AS customer, (i % 10000) * 0.01::numeric(10,2) AS amount,
		timestamptz '2024-01-01 00:00Z' + i * interval '1 second' AS created_at FROM generate_series(1, `+strconv.Itoa(rows)+`) i`)
	ctx := context.Background()

	b.Run("sql_attach", func(b *testing.B) {
		w := openTemp(b, Options{Extensions: []string{"postgres"}})
		block := "ATTACH '" + pg.ConnString() + "' AS src (TYPE postgres);\n" +
			"SELECT id, customer, amount, created_at FROM src.public.orders WHERE created_at >= $partition_start AND created_at < $partition_end"
		start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		params := map[string]any{"partition_key": "all", "partition_start": start, "partition_end": start.AddDate(1, 0, 0)}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			out, err := w.RunSQL(ctx, block, nil, params)
			if err != nil {
				b.Fatal(err)
			}
			if out.Len() != rows {
				b.Fatalf("%d rows", out.Len())
			}
		}
		b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	b.Run("copy_baseline", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(filepath.Join(pg.BinDir, "psql"), "-h", pg.Host, "-p", strconv.Itoa(pg.Port), "-U", pg.User, "-d", pg.Database,
				"-X", "-q", "-c", "COPY orders TO STDOUT")
			cmd.Env = []string{"PGPASSWORD=" + pg.Password, "PATH=/usr/bin:/bin"}
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out[:min(len(out), 500)])
			}
		}
		b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}
