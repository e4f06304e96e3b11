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

	// The change, staged in env:dev only: agg counts 100 times as much.
	e.rewrite(map[string]string{"blocks/agg.sql": `SELECT count(*) * 100 AS n, sum(x) AS s, $partition_key AS day FROM src`})
	const owner = "env:dev"
	inEnv := RunOptions{Stage: true, Pin: owner, PreferPinned: owner}
	res, err := e.eng.Run(context.Background(), "p", "2024-01-03", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)

	res, err = e.eng.Run(context.Background(), "reader", "2024-01-05", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	// Days 2, 3, 4 have 2, 3, 4 rows; dev's day 3 counts 300.
	if row := res.Output("reader").Row(0); row[0] != int64(306) || row[1] != int64(300) {
		t.Fatalf("in env:dev, range and one = %v, want 306 and 300 (dev's day 3)", row)
	}
	// What the block read is recorded: dev's version of day 3.
	var devVersion int
	if err := e.eng.wh.DB().QueryRow(`SELECT max(version) FROM _strata.pins WHERE owner = ? AND product = 'p__agg' AND partition = '2024-01-03'`, owner).Scan(&devVersion); err != nil || devVersion == 0 {
		t.Fatalf("dev's pinned version of p__agg 2024-01-03: %d %v", devVersion, err)
	}
	var got int
	if err := e.eng.wh.DB().QueryRow(`SELECT CAST(json_extract(upstream, '$.p__agg."2024-01-03"') AS INTEGER) FROM _strata.versions WHERE run_id = ? AND product = 'reader__reader'`, res.RunID).Scan(&got); err != nil || got != devVersion {
		t.Fatalf("recorded read of p__agg 2024-01-03 = v%d (%v), want dev's v%d", got, err, devVersion)
	}

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

	e.rewrite(map[string]string{"blocks/agg.sql": `SELECT count(*) * 100 AS n, sum(x) AS s, $partition_key AS day FROM src`})
	const owner = "env:dev"
	inEnv := RunOptions{Stage: true, Pin: owner, PreferPinned: owner}
	res, err := e.eng.Run(context.Background(), "p", "2024-01-03", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)

	res, err = e.eng.Run(context.Background(), "reader", "2024-01-05", inEnv)
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	if row := res.Output("named").Row(0); row[0] != int64(306) || row[1] != int64(3) {
		t.Fatalf("in env:dev, total and days = %v, want 306 and 3 (dev's day 3)", row)
	}
	var devVersion, got int
	if err := e.eng.wh.DB().QueryRow(`SELECT max(version) FROM _strata.pins WHERE owner = ? AND product = 'p__agg' AND partition = '2024-01-03'`, owner).Scan(&devVersion); err != nil || devVersion == 0 {
		t.Fatalf("dev's pinned version of p__agg 2024-01-03: %d %v", devVersion, err)
	}
	if err := e.eng.wh.DB().QueryRow(`SELECT CAST(json_extract(upstream, '$.p__agg."2024-01-03"') AS INTEGER) FROM _strata.versions WHERE run_id = ? AND product = 'reader__named'`, res.RunID).Scan(&got); err != nil || got != devVersion {
		t.Fatalf("recorded read of p__agg 2024-01-03 = v%d (%v), want dev's v%d", got, err, devVersion)
	}

	res = e.run("reader", "2024-01-05")
	e.mustSucceed(res)
	if row := res.Output("named").Row(0); row[0] != int64(9) {
		t.Fatalf("in prod, total = %v, want 9", row)
	}
}
