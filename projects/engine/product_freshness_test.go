package engine

import (
	"context"
	"testing"
	"time"
)

const readerBlock = `package reader

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	in, err := ctx.Product("raw_events", sdk.One("2024-01-05"))
	if err != nil {
		return nil, err
	}
	out := sdk.NewTable(sdk.Int64("rows"))
	out.Append(int64(in.Len()))
	return out, nil
}
`

func readerPipeline(maxAge string) string {
	return `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
reads:
  - product: raw_events
    freshness: {max_age: ` + maxAge + `}
blocks:
  - id: reader
`
}

// TestFreshnessRefreshesOncePerPartition: a read of a global product older
// than the reader's max_age refreshes it first, once for many readers at
// the same time; a fresh one is read as it is.
func TestFreshnessRefreshesOncePerPartition(t *testing.T) {
	e := newEnv(t, false, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql":          "SELECT $partition_key AS day, now() AS at\n",
		"pipelines/readers.yaml":  readerPipeline("1h"),
		"blocks/reader/reader.go": readerBlock,
	})
	e.mustSucceed(e.run("raw", "2024-01-05"))
	version := func() int {
		var v int
		if err := e.wh.DB().QueryRow(`SELECT version FROM _strata.current WHERE product = 'raw_events' AND partition = '2024-01-05'`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	e.mustSucceed(e.run("readers", "2024-01-10"))
	if v := version(); v != 1 {
		t.Fatalf("a fresh partition was refreshed: v%d", v)
	}

	// max_age 2s: after 2.2s the partition is too old; four readers at once refresh it once.
	writeFiles(t, e.dir, map[string]string{"pipelines/readers.yaml": readerPipeline("2s")})
	e.reload()
	time.Sleep(2200 * time.Millisecond)
	st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "readers", From: "2024-01-10", To: "2024-01-13", Reprocess: ReprocessAll, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = e.eng.Wait(context.Background(), st.ID); err != nil || st.State != StateSucceeded {
		t.Fatalf("readers backfill: %+v %v", st, err)
	}
	if v := version(); v != 2 {
		t.Fatalf("after four concurrent stale reads: v%d, want v2 (one refresh)", v)
	}
	runs, err := e.eng.Runs(context.Background(), RunFilter{Pipeline: "raw", Origin: OriginFreshness})
	if err != nil || len(runs) != 1 || runs[0].Origin == nil || runs[0].Partition != "2024-01-05" {
		t.Fatalf("refresh runs: %+v %v, want one of 2024-01-05 with its origin", runs, err)
	}
}
