package faults

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// weeklyRollupGo is the demo's weekly_customer_rollup as a Go block: its
// one input is the week's committed versions of daily_customer_metrics
// (another partitioning, so not an output of its own run).
const weeklyRollupGo = `// Package weekly_customer_rollup sums a week of daily customer metrics.
package weekly_customer_rollup

import (
	"math"
	"sort"

	"github.com/stratahq/strata/blocks/sdk"
)

func Transform(ctx *sdk.Context, metrics *sdk.Table) (*sdk.Table, error) {
	ids := metrics.Column("customer_id").Int64s()
	orders := metrics.Column("orders").Int64s()
	revenue := metrics.Column("revenue").Float64s()
	type sum struct {
		orders, days int64
		revenue      float64
	}
	by := map[int64]*sum{}
	for i, id := range ids {
		s := by[id]
		if s == nil {
			s = &sum{}
			by[id] = s
		}
		s.orders += orders[i]
		s.revenue += revenue[i]
		s.days++
	}
	keys := make([]int64, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := sdk.NewTable(sdk.Int64("customer_id"), sdk.Int64("orders"), sdk.Float64("revenue"), sdk.Int64("active_days"), sdk.String("week"))
	for _, k := range keys {
		s := by[k]
		out.Append(k, s.orders, math.Round(s.revenue*100)/100, s.days, ctx.Partition.Key)
	}
	return out, nil
}
`

// goRollup makes the demo's weekly rollup the Go block above.
func goRollup(t *testing.T) func(dir string) {
	return func(dir string) {
		t.Helper()
		blocks := filepath.Join(dir, "blocks")
		if err := os.Remove(filepath.Join(blocks, "weekly_customer_rollup.sql")); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(blocks, "weekly_customer_rollup"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(blocks, "weekly_customer_rollup", "weekly_customer_rollup.go"), []byte(weeklyRollupGo), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// On a DuckLake with two workers and no local kernels, a Go block whose
// input is committed versions (the weekly rollup over the week's daily
// partitions) reads them on its worker from the lake itself: the same
// pinned versions, the catalog's password asked for sealed. The
// coordinator no longer reads and sends those rows, and the lake ends
// with exactly what a single machine computes from the same project.
// Seen before (Go blocks' inputs sent as tables): input rows sent were
// daily_customer_metrics' rows of the week and more.
func TestScaleOutOnLakeGoBlockReadsCommittedVersionsOnWorker(t *testing.T) {
	d, edit := goRollupReference(t)
	tr, rows := lakeFilesBackfillOf(t, d, edit, nil)
	if tr.LakeGo < rows.weeks || tr.LakeInputs < rows.weeks {
		t.Errorf("workers read %d inputs from the lake and ran %d Go tasks over them, want the Go rollup's %d partitions", tr.LakeInputs, tr.LakeGo, rows.weeks)
	}
	// Without it the coordinator sent the rollup the week's
	// daily_customer_metrics rows: as many as the product holds.
	if tr.InputRows*2 >= rows.dcm {
		t.Errorf("the coordinator sent %d input rows to workers; daily_customer_metrics holds %d: the Go rollup's inputs went through it", tr.InputRows, rows.dcm)
	}
	if n := workerFilesOf(t, rows.dir, "weekly_customer_rollup"); n < rows.weeks {
		t.Errorf("%d of weekly_customer_rollup's files were written by workers, want one a week (%d)", n, rows.weeks)
	}
	if rows.secretCalls == 0 {
		t.Errorf("no worker asked for the lake's password (sealed)")
	}
	t.Logf("Go rollup on workers: %+v", tr)
}

// Workers that cannot read the lake (no ducklake extension) refuse the Go
// rollup's tasks before running them (ErrNotHere); the coordinator reads
// the pinned versions and sends them, and the lake ends with the same
// content: a worker's failure to read is a fallback, never a wrong input.
func TestScaleOutOnLakeGoBlockFallsBackWhenWorkersCannotReadTheLake(t *testing.T) {
	d, edit := goRollupReference(t)
	noExt := "env:STRATA_EXTENSION_DIR=" + t.TempDir()
	tr, rows := lakeFilesBackfillOf(t, d, edit, map[string][]string{"w1": {noExt}, "w2": {noExt}})
	if tr.LakeInputs < rows.weeks || tr.LakeGo != 0 || tr.InputsRefused < rows.weeks {
		t.Errorf("workers were sent %d inputs to read from the lake, ran %d Go tasks over them and refused %d tasks: want %d sent, none run, at least %d refused",
			tr.LakeInputs, tr.LakeGo, tr.InputsRefused, rows.weeks, rows.weeks)
	}
}

// goRollupReference is the demo with its weekly rollup in Go (goRollup),
// backfilled over the trials' range on one machine (the embedded file):
// the content a run of it on workers must end with.
func goRollupReference(t *testing.T) (*Driver, func(dir string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers on a DuckLake")
	}
	exttest.Require(t, "ducklake", "postgres")
	bin := strataproc.Binary(t)
	edit := goRollup(t)
	from, to := weekRange(1)
	refDir := filepath.Join(t.TempDir(), "reference")
	if out, code := strataproc.Run(t, bin, "init", refDir, "--demo"); code != 0 {
		t.Fatalf("init: %s", out)
	}
	edit(refDir)
	if out, code := strataproc.Run(t, bin, "backfill", refDir, "clv", "--from", from, "--to", to, "--concurrency", "4"); code != 0 {
		t.Fatalf("reference backfill: exit %d\n%s", code, out)
	}
	w, err := openWarehouse(refDir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	ref, err := w.readContent(from, to, weekKeys(from))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ref["clv__weekly_customer_rollup/"+weekKeys(from)[0]]; !ok {
		t.Fatalf("the reference has no weekly rollup: %v", ref)
	}
	return &Driver{Bin: bin, ref: ref}, edit
}

// The same with the lake's data in an S3-compatible bucket: the Go
// rollup's worker reads the pinned versions from the bucket with the key
// it asked for sealed (both the catalog's password and the bucket's key),
// and the lake ends with the single machine's content.
func TestScaleOutOnLakeInS3GoBlockReadsCommittedVersionsOnWorker(t *testing.T) {
	d, edit := goRollupReference(t)
	exttest.Require(t, "httpfs")
	tr, rows := lakeFilesBackfillOn(t, lakeSetup{s3: s3test.Start(t), d: d, edit: edit})
	if tr.LakeGo < rows.weeks || tr.LakeInputs < rows.weeks {
		t.Errorf("workers read %d inputs from the lake and ran %d Go tasks over them, want the Go rollup's %d partitions", tr.LakeInputs, tr.LakeGo, rows.weeks)
	}
	if tr.InputRows*2 >= rows.dcm {
		t.Errorf("the coordinator sent %d input rows to workers; daily_customer_metrics holds %d: the Go rollup's inputs went through it", tr.InputRows, rows.dcm)
	}
	if rows.secretCalls == 0 || rows.keyCalls == 0 {
		t.Errorf("workers asked %d times for the lake's password and %d times for the bucket's key (sealed): want both", rows.secretCalls, rows.keyCalls)
	}
}
