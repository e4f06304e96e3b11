package envs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/engine"
)

// TestEnvironmentPromoteRefusesAMovedUpstream: dev rebuilds metrics over
// prod's orders without a copy of its own (identical outputs are not
// re-staged), then prod rewrites orders 2024-01-02 alone (a block-subset
// backfill). dev's metrics 2024-01-02 was computed from the orders prod no
// longer serves: the promote is refused, naming the partition and the
// upstream that moved, and nothing is applied. Rebuilt over prod's newer
// orders, it promotes.
func TestEnvironmentPromoteRefusesAMovedUpstream(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.backfill("")
	if _, err := f.s.Create(ctx, "dev", CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.write("blocks/metrics.sql", "SELECT day, sum(amount) * 2 AS total FROM src GROUP BY day\n")
	f.backfill(Owner("dev"))
	if got := f.query(`SELECT string_agg(DISTINCT product, ',') FROM _strata.pins WHERE owner = 'env:dev'`); got != "metrics" {
		t.Fatalf("dev pins products %q, want metrics only (orders is prod's)", got)
	}
	// Prod rewrites orders 2024-01-02 only; its metrics is left stale.
	f.write("blocks/src.sql", "SELECT $partition_key AS day, range AS id, range * 100 AS amount FROM range(3)\n")
	st, err := f.eng.Launch(ctx, engine.BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02", Reprocess: engine.ReprocessAll, Blocks: []string{"src"}})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = f.eng.Wait(ctx, st.ID); err != nil || st.State != engine.StateSucceeded {
		t.Fatalf("prod subset backfill: %+v %v", st, err)
	}
	before := f.totals("main")
	pinsBefore := f.query(`SELECT count(*)::VARCHAR FROM _strata.pins WHERE owner = 'env:dev'`)
	_, err = f.s.Promote(ctx, "dev", false, f.dir)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("promote over a moved upstream was not refused: %v", err)
	}
	var named []string
	for _, c := range ce.Conflicts {
		named = append(named, c.Product+" "+c.Partition)
	}
	if strings.Join(named, ",") != "metrics 2024-01-02" {
		t.Fatalf("conflicts named %v, want metrics 2024-01-02: %v", named, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "metrics 2024-01-02") || !strings.Contains(msg, "orders 2024-01-02") {
		t.Fatalf("the refusal names neither the partition nor the upstream that moved: %v", err)
	}
	t.Log(err)
	if got := f.totals("main"); got != before {
		t.Fatalf("a refused promote changed prod: %s, was %s", got, before)
	}
	if got := f.query(`SELECT count(*)::VARCHAR FROM _strata.pins WHERE owner = 'env:dev'`); got != pinsBefore {
		t.Fatalf("a refused promote released dev's pins: %s, was %s", got, pinsBefore)
	}
	// Rebuilt over prod's newer orders, the promote goes through.
	f.backfill(Owner("dev"))
	res, err := f.s.Promote(ctx, "dev", false, f.dir)
	if err != nil {
		t.Fatalf("promote after the rebuild: %v", err)
	}
	if res.Partitions["metrics"] != 3 {
		t.Fatalf("promoted %v, want 3 metrics partitions", res.Partitions)
	}
	if got := f.totals("main"); got != "2024-01-01=600,2024-01-02=600,2024-01-03=600" {
		t.Fatalf("prod after the promote: %s", got)
	}
}

// TestEnvironmentPromoteNamesADroppedUpstream: dev's run wrote orders and
// metrics together (metrics' lineage names "the orders this run wrote");
// a later run rebuilt orders alone in dev, and retention dropped the
// orders version metrics was computed from. The promote is refused, and
// says so in words: not "version none".
func TestEnvironmentPromoteNamesADroppedUpstream(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.backfill("")
	if _, err := f.s.Create(ctx, "dev", CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.write("blocks/src.sql", "SELECT $partition_key AS day, range AS id, range * 20 AS amount FROM range(3)\n")
	f.backfill(Owner("dev"))
	f.write("blocks/src.sql", "SELECT $partition_key AS day, range AS id, range * 30 AS amount FROM range(3)\n")
	st, err := f.eng.Launch(ctx, engine.BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02", Reprocess: engine.ReprocessAll, Blocks: []string{"src"}, Into: Owner("dev")})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = f.eng.Wait(ctx, st.ID); err != nil || st.State != engine.StateSucceeded {
		t.Fatalf("dev subset backfill: %+v %v", st, err)
	}
	before := f.totals("main")
	_, err = f.s.Promote(ctx, "dev", false, f.dir)
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("promote of metrics over a dropped upstream was not refused: %v", err)
	}
	msg := err.Error()
	t.Log(msg)
	if strings.Contains(msg, "version none") || strings.Contains(msg, "prod changed") || !strings.Contains(msg, "metrics 2024-01-02") ||
		!strings.Contains(msg, "1 of dev's versions were computed from upstream versions dev has replaced since") ||
		!strings.Contains(msg, "no longer exists") || !strings.Contains(msg, "run metrics 2024-01-02 in the environment again") {
		t.Fatalf("the refusal does not say the upstream version its run wrote is gone, and what to do: %v", err)
	}
	for _, c := range ce.Conflicts {
		if c.Input != "" && !c.InputGone {
			t.Errorf("conflict %+v: InputGone unset", c)
		}
	}
	if got := f.totals("main"); got != before {
		t.Fatalf("a refused promote changed prod: %s, was %s", got, before)
	}
}
