package sourcecorpus

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/corpus"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// exportBenchRows is how many rows one export writes.
const exportBenchRows = 200_000

// exportBenchBlock exports one table of exportBenchRows rows to a real
// Postgres twice, as an Export block would: with sdk.ReplacePartition
// through database/sql and pgx's driver (what the shop demo does), and with
// pgx's CopyFrom, Postgres' COPY FROM (the baseline: the fastest way in).
// It times each inside the block and prints "sdk ROWS NANOS" and "copy ROWS
// NANOS".
const exportBenchBlock = `package main

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stratahq/strata/blocks/sdk"
)

func main() {
	ctx := context.Background()
	const rows = {{ROWS}}
	t := sdk.NewTable(sdk.Int64("id"), sdk.String("day"), sdk.Decimal("amount", 12, 2), sdk.String("note"))
	copyRows := make([][]any, 0, rows)
	for i := 0; i < rows; i++ {
		amount := fmt.Sprintf("%d.%02d", i%10000, i%100)
		note := fmt.Sprintf("order %d", i)
		t.Column("id").AppendInt64(int64(i))
		t.Column("day").AppendString("2024-03-10")
		if err := t.Column("amount").AppendDecimal(amount); err != nil {
			panic(err)
		}
		t.Column("note").AppendString(note)
		copyRows = append(copyRows, []any{int64(i), "2024-03-10", amount, note})
	}
	db, err := sql.Open("pgx", "{{PG_DSN}}")
	if err != nil {
		panic(err)
	}
	defer db.Close()
	start := time.Now()
	n, err := sdk.ReplacePartition(ctx, db, "export_sdk", "day", "2024-03-10", t, sdk.WriteOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("sdk", n, time.Since(start).Nanoseconds())

	conn, err := pgx.Connect(ctx, "{{PG_DSN}}")
	if err != nil {
		panic(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "TRUNCATE export_copy"); err != nil {
		panic(err)
	}
	start = time.Now()
	c, err := conn.CopyFrom(ctx, pgx.Identifier{"export_copy"}, []string{"id", "day", "amount", "note"}, pgx.CopyFromRows(copyRows))
	if err != nil {
		panic(err)
	}
	fmt.Println("copy", c, time.Since(start).Nanoseconds())
}
`

// BenchmarkExportToPostgres reports an Export block's rows/s into a real
// Postgres with sdk.ReplacePartition, COPY FROM's rows/s for the same rows,
// and their ratio (sdk/copy: 1 would be as fast as COPY). The block runs
// compiled against the source corpus' go.mod (pgx v5.13.0).
func BenchmarkExportToPostgres(b *testing.B) {
	tc, err := build.FindToolchain()
	if err != nil {
		b.Skip(err)
	}
	pg := pgtest.Start(b)
	pg.Psql(b, `CREATE TABLE export_sdk (id bigint, day text, amount numeric(12,2), note text);
		CREATE TABLE export_copy (id bigint, day text, amount numeric(12,2), note text)`)
	dir := modtest.Project(b, "../testdata/sources")
	src := strings.NewReplacer("{{PG_DSN}}", pg.DSN(), "{{ROWS}}", strconv.Itoa(exportBenchRows)).Replace(exportBenchBlock)
	ctx := context.Background()
	w, err := build.Build(ctx, build.Options{Dir: filepath.Join(dir, ".strata", "build"), Tool: tc, Module: dir},
		[]build.Block{{File: "export/main.go", Source: corpus.Block(src)}})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Failed["export/main.go"]; err != nil {
		b.Fatal(err)
	}
	pools := build.NewPools(supervisor.Config{}, 1)
	defer pools.Close()
	k, release := pools.Acquire(w)
	defer release()
	var sdkNs, copyNs, rows float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, _, err := k.Exec(ctx, &protocol.ExecRequest{Filename: "export/main.go", Source: corpus.Block(src), Timeout: 10 * time.Minute}, nil, discard{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Error != nil {
			b.Fatalf("export block: %s\n%s", res.Error.Message, res.Stdout)
		}
		for _, line := range strings.Split(strings.TrimSpace(res.Stdout), "\n") {
			var what string
			var n, ns float64
			if _, err := fmt.Sscan(line, &what, &n, &ns); err != nil {
				b.Fatalf("block printed %q", line)
			}
			switch what {
			case "sdk":
				sdkNs += ns
				rows += n
			case "copy":
				copyNs += ns
			}
		}
	}
	b.StopTimer()
	sdkRate, copyRate := rows/(sdkNs/1e9), rows/(copyNs/1e9)
	b.ReportMetric(sdkRate, "sdk_rows/s")
	b.ReportMetric(copyRate, "copy_rows/s")
	b.ReportMetric(sdkRate/copyRate, "sdk/copy")
}
