package engine

import (
	"context"
	"strings"
	"testing"
)

// Two readers of the day × region product p__agg (cellFiles): a day
// pipeline that totals every region of its day, and a week × region one
// that totals its week's days of its region, both by reading
// ctx.Product("p__agg", sdk.One(ctx.Partition.Key)).
const dayReaderPipeline = `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: total
`

const weekRegionReaderPipeline = `partitions:
  interval: week
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: wtotal
`

const cellReaderBlock = `package %s

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	in, err := ctx.Product("p__agg", sdk.One(ctx.Partition.Key))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("cells"), sdk.Int64("n"))
	var n int64
	for i := range in.Len() {
		n += in.Column("n").Value(i).(int64)
	}
	t.Append(ctx.Partition.Key, int64(in.Len()), n)
	return t, nil
}
`

func TestCellReadsBetweenDimensions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	files := cellFiles("")
	files["pipelines/daily.yaml"] = dayReaderPipeline
	files["blocks/total/total.go"] = sprintf(cellReaderBlock, "total")
	files["pipelines/wr.yaml"] = weekRegionReaderPipeline
	files["blocks/wtotal/wtotal.go"] = sprintf(cellReaderBlock, "wtotal")
	e := newEnv(t, false, files)
	if st := e.backfill(cellSpec("2024-01-01", "2024-01-07", nil)); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	// A day reads all three regions of its day: 3 cells of 3 rows each.
	e.mustSucceed(e.run("daily", "2024-01-03"))
	if n := e.count(`SELECT count(*) FROM daily__total WHERE key = '2024-01-03' AND cells = 3 AND n = 9`); n != 1 {
		t.Fatal("the day reader did not read every region of its day")
	}
	// A week × region cell reads its seven days of its region: 1+…+7 rows.
	e.mustSucceed(e.run("wr", "2024-W01|eu"))
	if n := e.count(`SELECT count(*) FROM wr__wtotal WHERE key = '2024-W01|eu' AND cells = 7 AND n = 28`); n != 1 {
		t.Fatal("the week × region reader did not read its region's days")
	}
	e.mustSucceed(e.run("daily", "2024-01-04"))
	// Rewriting one region's day makes that day's reader stale, and that
	// region's week, not the others.
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": strings.Replace(sprintf(cellPipeline, ""), "concurrency: 3", "concurrency: 2", 1)})
	e.reload()
	e.mustSucceed(e.run("p", "2024-01-03|eu"))
	for _, c := range []struct {
		pipeline, from, to string
		stale              map[string]string
	}{
		{"daily", "2024-01-03", "2024-01-04", map[string]string{"2024-01-03": "upstream p__agg 2024-01-03|eu", "2024-01-04": ""}},
		{"wr", "2024-W01", "2024-W01", map[string]string{"2024-W01|eu": "upstream p__agg 2024-01-03|eu", "2024-W01|us": "missing", "2024-W01|apac": "missing"}},
	} {
		s := BackfillSpec{Pipeline: c.pipeline, From: c.from, To: c.to, Reprocess: ReprocessStale}
		plan, err := e.eng.Plan(ctx, s, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		for _, pp := range plan.Partitions {
			want := c.stale[pp.Key]
			switch {
			case want == "" && pp.Action == "run":
				t.Errorf("%s %s: %s %s (%s), want it current", c.pipeline, pp.Key, pp.State, pp.Action, pp.Reason)
			case want == "missing" && pp.State != "missing":
				t.Errorf("%s %s: %s, want missing", c.pipeline, pp.Key, pp.State)
			case want != "" && want != "missing" && (pp.Action != "run" || !strings.Contains(pp.Reason, want)):
				t.Errorf("%s %s: %s %s (%s), want stale by %q", c.pipeline, pp.Key, pp.State, pp.Action, pp.Reason, want)
			}
		}
	}
}
