package engine

import (
	"context"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// TestEditorReadsMappedCells: an editor run of a day block reads the
// cells of its day of a day × region product, as a run does: a SQL cell
// naming it (3 rows, not the 9 of the product) and a ctx.Product call
// with the day's key (3 rows, not an error).
func TestEditorReadsMappedCells(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, map[string]string{
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: load
`,
		"blocks/load.sql":      "SELECT $partition_key AS k",
		"pipelines/daily.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: total\n",
		"blocks/total.sql":     "SELECT count(*) AS cells FROM p__load",
	})
	ctx := context.Background()
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-03"}); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	in, err := e.eng.PrepareInteractive(ctx, "daily", "total", "2024-01-02", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := in.ExecSQL(ctx)("SELECT string_agg(k, ',' ORDER BY k) AS ks FROM p__load")
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Column("ks").Strings()[0]; got != "2024-01-02|apac,2024-01-02|eu,2024-01-02|us" {
		t.Errorf("the editor's SQL read %s; want the 3 regions of 2024-01-02", got)
	}
	got, err := in.HostCall(ctx, &protocol.HostCall{Method: "product", Product: "p__load", Window: sdk.One("2024-01-02")})
	if err != nil || got.Len() != 3 {
		n := -1
		if got != nil {
			n = got.Len()
		}
		t.Errorf("the editor's ctx.Product of 2024-01-02 read %d rows (%v); want the 3 regions of the day", n, err)
	}
}
