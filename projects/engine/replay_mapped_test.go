package engine

import (
	"context"
	"testing"
)

// TestReplayReadsRecordedCellsAfterTheKeySetChanged: a SQL block naming a
// day × customer product read its day's customers; the key set has lost
// every customer since. Its replay reads the cells it recorded, as they
// were, and reports it unchanged, rather than failing on today's mapping
// (the key set holds no value).
func TestReplayReadsRecordedCellsAfterTheKeySetChanged(t *testing.T) {
	t.Parallel()
	customers := func(query string) map[string]string {
		return map[string]string{"blocks/list.sql": query}
	}
	files := map[string]string{
		"pipelines/customers.yaml": "blocks:\n  - id: list\n    product: dim_customers\n",
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: customer
      from: {product: dim_customers, column: id}
blocks:
  - id: load
`,
		"blocks/load.sql":      "SELECT $partition_key AS k, 1 AS n",
		"pipelines/daily.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: total\n",
		"blocks/total.sql":     "SELECT count(*) AS cells, sum(n) AS total FROM p__load",
	}
	for k, v := range customers("SELECT * FROM (VALUES ('c1'), ('c2')) t(id)") {
		files[k] = v
	}
	e := newEnv(t, false, files)
	ctx := context.Background()
	e.mustSucceed(e.run("customers", "all"))
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02"}); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	e.mustSucceed(e.run("daily", "2024-01-02"))
	if n := e.count(`SELECT count(*) FROM daily__total WHERE cells = 2`); n != 1 {
		t.Fatal("daily did not read its day's 2 customers")
	}
	// Every customer leaves.
	writeFiles(t, e.dir, customers("SELECT 'c1' AS id WHERE false"))
	e.reload()
	e.mustSucceed(e.run("customers", "all"))

	rp, err := e.eng.NewReplayer(ctx, "daily", ReplayOptions{Engine: EngineInterp})
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	res := rp.Replay(ctx, ReplayTarget{Interval: "day", Partition: "2024-01-02"})
	if res.Status != ReplayUnchanged {
		t.Fatalf("replay of daily 2024-01-02: %s %+v; want unchanged (it read c1 and c2 as they were)", res.Status, res.Blocks)
	}
}
