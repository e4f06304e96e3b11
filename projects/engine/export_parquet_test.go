package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const parquetPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: sales
  - id: lake
    upstream: [sales]
`

const salesBlock = `package sales

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.Int64("id"), sdk.Decimal("amount", 10, 2), sdk.Date("day"))
	for i := 0; i < ctx.Partition.Start.Day(); i++ {
		if err := t.Column("amount").AppendDecimal("1.25"); err != nil {
			return nil, err
		}
		t.Column("id").AppendInt64(int64(i))
		t.Column("day").AppendTime(ctx.Partition.Start)
	}
	return t, t.Err()
}
`

const lakeBlock = `package lake

import "github.com/stratahq/strata/blocks/sdk"

func Export(ctx *sdk.Context, sales *sdk.Table) error {
	path, err := ctx.ExportParquet("out/sales")
	if err != nil {
		return err
	}
	ctx.Log.Info("wrote", "path", path, "key", ctx.ExportKey().String())
	return nil
}
`

// ctx.ExportParquet lands an Export block's input as one Parquet file per
// partition (hive layout); a partition exported again replaces its file.
func TestExportParquetHiveLayout(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/pq.yaml":     parquetPipeline,
		"blocks/sales/sales.go": salesBlock,
		"blocks/lake/lake.go":   lakeBlock,
	})
	e.mustSucceed(e.run("pq", "2024-01-02"))
	e.mustSucceed(e.run("pq", "2024-01-03"))
	e.mustSucceed(e.run("pq", "2024-01-03")) // a second export of the same partition
	dir := filepath.Join(e.dir, "out", "sales")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(files, ",") != "day=2024-01-02/data.parquet,day=2024-01-03/data.parquet" {
		t.Fatalf("files %v, want one per partition and no temporary ones", files)
	}
	var n int
	var sum, typ, day string
	if err := e.wh.DB().QueryRow(`SELECT count(*), sum(amount)::VARCHAR, any_value(typeof(amount)), max(day)::VARCHAR
		FROM read_parquet(?, hive_partitioning = false)`, filepath.Join(dir, "*", "*.parquet")).Scan(&n, &sum, &typ, &day); err != nil {
		t.Fatal(err)
	}
	if n != 5 || sum != "6.25" || typ != "DECIMAL(10,2)" || day != "2024-01-03" {
		t.Fatalf("parquet: %d rows, sum %s, type %s, max day %s; want 5, 6.25, DECIMAL(10,2), 2024-01-03", n, sum, typ, day)
	}
}
