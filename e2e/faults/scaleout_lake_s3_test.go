package faults

import (
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/s3test"
)

// The demo on a DuckLake whose data is in an S3-compatible bucket
// (SeaweedFS, catalog in Postgres), with two workers and no local
// kernels: workers write their outputs' Parquet into the bucket
// themselves, read their upstreams' objects there, and run the SQL blocks
// over their run's objects and over the lake's committed versions, so the
// coordinator sends and receives hardly any table rows. The bucket's key
// reaches a worker only sealed (it asks for lake_s3.key_id and
// lake_s3.secret by name; workers are started without the key's
// environment variables), and the lake then holds exactly what the
// single-machine reference holds, with the suite's end invariants.
//
// Before, a worker on a bucket sent every output back as a table (the
// file sink refused s3://): seen 62,199 input and 24,930 output rows
// through the coordinator, no file written by a worker.
func TestScaleOutOnLakeInS3WorkersWriteTheBucket(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers on a DuckLake in SeaweedFS")
	}
	srv := s3test.Start(t)
	tr, rows := lakeFilesBackfillOn(t, lakeSetup{s3: srv})
	if want := 3*rows.clvParts + rows.segments; tr.InputFiles < want || tr.InputsRefused != 0 {
		t.Errorf("tasks named %d upstream objects (%d refused), want at least %d, none refused", tr.InputFiles, tr.InputsRefused, want)
	}
	if want := rows.segments + rows.stats; tr.InputRows >= want+rows.dcm {
		t.Errorf("the coordinator sent %d input rows to workers, want about %d (segments and segment_stats rows), never daily_customer_metrics' %d or clv's %d", tr.InputRows, want, rows.dcm, rows.clv)
	}
	if tr.OutputRows >= rows.dcm {
		t.Errorf("the coordinator received %d output rows: daily_customer_metrics' %d came back", tr.OutputRows, rows.dcm)
	}
	for _, p := range []struct {
		product string
		want    int64
	}{{"daily_customer_metrics", rows.clvParts}, {"clv__clv", rows.clvParts}, {"weekly_customer_rollup", rows.weeks}} {
		if n := workerFilesOf(t, rows.dir, p.product); n < p.want {
			t.Errorf("%d of %s's files were written by workers, want at least %d", n, p.product, p.want)
		}
	}
	if tr.LakeInputs < rows.weeks || tr.LakeSQL < rows.weeks {
		t.Errorf("workers read %d inputs from the lake and ran %d SQL tasks over them, want weekly_customer_rollup's %d partitions", tr.LakeInputs, tr.LakeSQL, rows.weeks)
	}
	if rows.keyCalls == 0 {
		t.Errorf("no worker asked for the bucket's key (lake_s3.key_id, lake_s3.secret)")
	}
	// The objects are in the bucket, under the lake's prefix, named as
	// workers name them.
	objects := 0
	for _, k := range srv.List(t, "lake", "strata/") {
		if strings.Contains(k, "/strata-") && strings.HasSuffix(k, ".parquet") {
			objects++
		}
	}
	if objects < int(3*rows.clvParts) {
		t.Errorf("%d objects written by workers under s3://lake/strata/, want at least %d", objects, 3*rows.clvParts)
	}
	t.Logf("%d objects written by workers in the bucket", objects)
}

// A worker that cannot reach the bucket (its DuckDB has no httpfs) neither
// asks for the key nor fails a partition: it sends its outputs back as
// tables, refuses the tasks that name objects (ErrNotHere) and the
// coordinator reads those objects with the lake's own key and sends the
// tables, and the backfill ends with the reference content all the same.
func TestScaleOutOnLakeInS3WorkerWithoutHttpfsFallsBack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real binary as a coordinator and two workers on a DuckLake in SeaweedFS")
	}
	srv := s3test.Start(t)
	noExt := "env:STRATA_EXTENSION_DIR=" + t.TempDir()
	tr, rows := lakeFilesBackfillOn(t, lakeSetup{s3: srv, extra: map[string][]string{"w2": {noExt}}})
	if tr.InputFiles == 0 || tr.InputsRefused == 0 {
		t.Errorf("tasks named %d upstream objects, %d refused: want some named (w1's), and some refused by w2", tr.InputFiles, tr.InputsRefused)
	}
	if rows.keyCalls == 0 {
		t.Errorf("w1 never asked for the bucket's key")
	}
}
