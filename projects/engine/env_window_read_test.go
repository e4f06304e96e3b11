package engine

import (
	"context"
	"testing"
)

const windowReaderBlock = `package reader

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	rng, err := ctx.Product("p__agg", sdk.Range("2024-01-02", "2024-01-04"))
	if err != nil {
		return nil, err
	}
	one, err := ctx.Product("p__agg", sdk.One("2024-01-03"))
	if err != nil {
		return nil, err
	}
	var sum int64
	for _, n := range rng.Column("n").Int64s() {
		sum += n
	}
	t := sdk.NewTable(sdk.Int64("range"), sdk.Int64("one"))
	t.Append(sum, one.Column("n").Int64s()[0])
	return t, nil
}
`

// A block run in an environment that reads another product through a
// ctx.Product window sees the versions the environment holds (its pins),
// as its upstream inputs do; a prod run of the same block still sees prod's.
func TestEnvRunReadsProductWindowsFromTheEnv(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["pipelines/reader.yaml"] = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: reader
`
	files["blocks/reader/reader.go"] = windowReaderBlock
	e := newEnv(t, false, files)
	e.backfill(spec("2024-01-01", "2024-01-09"))

	res := readerInDev(t, e)
	// Days 2, 3, 4 have 2, 3, 4 rows; dev's day 3 counts 300.
	if row := res.Output("reader").Row(0); row[0] != int64(306) || row[1] != int64(300) {
		t.Fatalf("in env:dev, range and one = %v, want 306 and 300 (dev's day 3)", row)
	}
	// What the block read is recorded: dev's version of day 3.
	readDevsDay3(t, e, res.RunID, "reader__reader")

	// Prod is unchanged: the same block run in prod reads prod's day 3.
	res = e.run("reader", "2024-01-05")
	e.mustSucceed(res)
	if row := res.Output("reader").Row(0); row[0] != int64(9) || row[1] != int64(3) {
		t.Fatalf("in prod, range and one = %v, want 9 and 3", row)
	}
}

// A SQL block run in an environment that names a product other than its
// upstreams reads the environment's versions of it, and records them.
func TestEnvRunSQLNamingAProductReadsTheEnv(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["pipelines/reader.yaml"] = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: named
`
	files["blocks/named.sql"] = `SELECT sum(n) AS total, count(*) AS days FROM p__agg WHERE _partition BETWEEN '2024-01-02' AND '2024-01-04'`
	e := newEnv(t, false, files)
	e.backfill(spec("2024-01-01", "2024-01-09"))

	res := readerInDev(t, e)
	if row := res.Output("named").Row(0); row[0] != int64(306) || row[1] != int64(3) {
		t.Fatalf("in env:dev, total and days = %v, want 306 and 3 (dev's day 3)", row)
	}
	readDevsDay3(t, e, res.RunID, "reader__named")

	res = e.run("reader", "2024-01-05")
	e.mustSucceed(res)
	if row := res.Output("named").Row(0); row[0] != int64(9) {
		t.Fatalf("in prod, total = %v, want 9", row)
	}
}

// readerInDev stages a change of agg in env:dev (it counts 100 times as
// much) for 2024-01-03 only, then runs the reader pipeline for 2024-01-05
// in env:dev, and returns that run.
func readerInDev(t *testing.T, e *env) *RunResult {
	t.Helper()
	e.rewrite(map[string]string{"blocks/agg.sql": `SELECT count(*) * 100 AS n, sum(x) AS s, $partition_key AS day FROM src`})
	inEnv := RunOptions{Stage: true, Pin: "env:dev", PreferPinned: "env:dev"}
	run := func(pipeline, key string) *RunResult {
		res, err := e.eng.Run(context.Background(), pipeline, key, inEnv)
		if err != nil {
			t.Fatal(err)
		}
		e.mustSucceed(res)
		return res
	}
	run("p", "2024-01-03")
	return run("reader", "2024-01-05")
}

// readDevsDay3 checks that run recorded, for product, a read of env:dev's
// version of p__agg 2024-01-03.
func readDevsDay3(t *testing.T, e *env, runID, product string) {
	t.Helper()
	var devVersion, got int
	if err := e.eng.wh.DB().QueryRow(`SELECT max(version) FROM _strata.pins WHERE owner = 'env:dev' AND product = 'p__agg' AND partition = '2024-01-03'`).Scan(&devVersion); err != nil || devVersion == 0 {
		t.Fatalf("dev's pinned version of p__agg 2024-01-03: %d %v", devVersion, err)
	}
	if err := e.eng.wh.DB().QueryRow(`SELECT CAST(json_extract(upstream, '$.p__agg."2024-01-03"') AS INTEGER) FROM _strata.versions WHERE run_id = ? AND product = ?`, runID, product).Scan(&got); err != nil || got != devVersion {
		t.Fatalf("recorded read of p__agg 2024-01-03 = v%d (%v), want dev's v%d", got, err, devVersion)
	}
}
