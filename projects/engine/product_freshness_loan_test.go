package engine

import (
	"context"
	"testing"
)

// TestFreshnessRefreshBorrowsTheReadersKernel: every kernel of the pool is
// held by a reader whose ctx.Product waits for a refresh of the product it
// reads, and the refresh is a Go block too. The refresh must not wait for a
// kernel only the readers' end frees: it ran on the kernel the waiting
// reader lends (supervisor.WithLoan). Before, the reader failed "timed out
// after 8s" with the refresh still waiting for a kernel.
func TestFreshnessRefreshBorrowsTheReadersKernel(t *testing.T) {
	t.Parallel()
	e := newEnvPool(t, 1, map[string]string{
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw/raw.go": `package raw

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("day"))
	out.Append(ctx.Partition.Key)
	return out, nil
}
`,
		"pipelines/readers.yaml":  readerPipeline("1h") + "timeout: 8s\n",
		"blocks/reader/reader.go": readerBlock,
	})
	// raw_events 2024-01-05 was never computed: the read refreshes it.
	st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "readers", From: "2024-01-10", To: "2024-01-10", Reprocess: ReprocessAll, Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = e.eng.Wait(context.Background(), st.ID); err != nil || st.State != StateSucceeded {
		ps, _, _ := e.eng.BackfillPartitions(context.Background(), st.ID, "", 0, -1)
		t.Fatalf("reader backfill with the only kernel held by the reader: %+v %v; partitions %+v", st, err, ps)
	}
	runs, err := e.eng.Runs(context.Background(), RunFilter{Pipeline: "raw", Origin: OriginFreshness})
	if err != nil || len(runs) != 1 || runs[0].State != StateSucceeded {
		t.Fatalf("refresh runs: %+v %v, want one that succeeded", runs, err)
	}
	if s := e.pool.Size(); s != 1 {
		t.Fatalf("pool size %d", s)
	}
	if r, _ := e.pool.Stats(); r > 1 {
		t.Fatalf("the lent kernel outlived its run: %d kernels", r)
	}
}
